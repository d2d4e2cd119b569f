#include "mcp/element_numbers.h"

#include <gtest/gtest.h>

namespace companyos::mcp {
namespace {

TEST(ElementNumbers, ANumberMapsOntoTheNewestStateOfTheApp) {
  ElementNumbers numbers;
  numbers.remember({"gedit", "w1", "s1"});
  numbers.remember({"gedit", "w2", "s2"});
  numbers.remember({"gedit", "w1", "s3"});  // w1 read again: its newest state
  auto ref = numbers.ref_for("GEDIT", std::nullopt, 12, std::nullopt);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(*ref, "@s3:e12");
  EXPECT_EQ(*numbers.ref_for("gedit", std::string("w2"), 4, std::nullopt), "@s2:e4");
  EXPECT_EQ(*numbers.ref_for("gedit", std::nullopt, 4, std::string("s2")), "@s2:e4");
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
  auto ref = numbers.ref_for(c.app, std::nullopt, c.element, c.state);
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
