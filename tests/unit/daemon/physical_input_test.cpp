#include "daemon/methods/physical_input.h"

#include <gtest/gtest.h>

#include "core/clock.h"
#include "store/database.h"
#include "store/settings.h"

namespace companyos::daemon {
namespace {

struct Case {
  std::string name;
  bool setting;
  bool headed;
  bool allowed;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class PhysicalInputGate : public ::testing::TestWithParam<Case> {};

TEST_P(PhysicalInputGate, NeedsTheSettingAndHeaded) {
  const Case& c = GetParam();
  auto db = store::Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock;
  store::Settings settings(*db, clock);
  ASSERT_TRUE(settings.set("physical_input", c.setting).ok());
  const Status gate = check_physical_input(settings, c.headed);
  EXPECT_EQ(gate.ok(), c.allowed);
  if (!gate.ok()) {
    EXPECT_EQ(gate.error().code, ErrorCode::kPolicyDenied);
    EXPECT_EQ(gate.error().details["reason"], "physical_input_disabled");
    EXPECT_EQ(gate.error().retry, Retry::kSafe);
  }
}

INSTANTIATE_TEST_SUITE_P(Table, PhysicalInputGate,
                         ::testing::Values(Case{"off_not_headed", false, false, false},
                                           Case{"off_headed", false, true, false},
                                           Case{"on_not_headed", true, false, false},
                                           Case{"on_headed", true, true, true}),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace companyos::daemon
