#include "mcp/element_numbers.h"

#include <gtest/gtest.h>

namespace companyos::mcp {
namespace {

// The ref element N stands for, as a tool sends it to the daemon.
Result<std::string> ref_for(const ElementNumbers& numbers, const std::string& app,
                            const std::optional<std::string>& window_id, std::int64_t element,
                            const std::optional<std::string>& state) {
  auto seen = numbers.state_for(app, window_id, element, state);
  if (!seen) return std::move(seen).take_error();
  return ElementNumbers::ref_in(*seen, element);
}

TEST(ElementNumbers, ANumberMapsOntoTheNewestStateOfTheApp) {
  ElementNumbers numbers;
  numbers.remember({"gedit", "w1", "s1"});
  numbers.remember({"gedit", "w2", "s2"});
  numbers.remember({"gedit", "w1", "s3"});  // w1 read again: its newest state
  auto ref = ref_for(numbers, "GEDIT", std::nullopt, 12, std::nullopt);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(*ref, "@s3:e12");
  EXPECT_EQ(*ref_for(numbers, "gedit", std::string("w2"), 4, std::nullopt), "@s2:e4");
  EXPECT_EQ(*ref_for(numbers, "gedit", std::nullopt, 4, std::string("s2")), "@s2:e4");
  // A number of an older window's state belongs to that window, not the app's newest.
  EXPECT_EQ(numbers.state_for("gedit", std::nullopt, 4, std::string("s2"))->window_id, "w2");
}

struct RefusalCase {
  const char* name;
  std::string app;
  std::int64_t element;
  std::optional<std::string> state;
  ErrorCode code;
};

class ElementNumberRefusals : public ::testing::TestWithParam<RefusalCase> {};

TEST_P(ElementNumberRefusals, AreErrorsThatSayWhy) {
  ElementNumbers numbers;
  numbers.remember({"gedit", "w1", "s1"});
  numbers.remember({"gedit", "w1", "s4"});  // s1 is now an older state of w1
  numbers.remember({"calc", "w9", "s5"});
  const RefusalCase& c = GetParam();
  auto ref = ref_for(numbers, c.app, std::nullopt, c.element, c.state);
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().code, c.code) << ref.error().message;
  if (c.code == ErrorCode::kStaleRef) {
    EXPECT_EQ(ref.error().suggestion, kStaleNumberAdvice);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ElementNumberRefusals,
    ::testing::Values(RefusalCase{"older_state", "gedit", 3, "s1", ErrorCode::kStaleRef},
                      RefusalCase{"unknown_state", "gedit", 3, "s77", ErrorCode::kStaleRef},
                      RefusalCase{"state_of_other_app", "gedit", 3, "s5", ErrorCode::kInvalidArgs},
                      RefusalCase{"app_never_read", "mousepad", 3, std::nullopt, ErrorCode::kElementNotFound},
                      RefusalCase{"negative", "gedit", -1, std::nullopt, ErrorCode::kInvalidArgs}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace companyos::mcp
