#include "daemon/methods/physical_input.h"

#include <gtest/gtest.h>

#include "core/clock.h"
#include "store/database.h"
#include "store/settings.h"

namespace companyos::daemon {
namespace {

struct PhysicalInputCase {
  std::string name;
  bool setting;
  bool headed;
  bool allowed;
  friend void PrintTo(const PhysicalInputCase& c, std::ostream* os) { *os << c.name; }
};

class PhysicalInputGate : public ::testing::TestWithParam<PhysicalInputCase> {};

TEST_P(PhysicalInputGate, NeedsTheSettingAndHeaded) {
  const PhysicalInputCase& c = GetParam();
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
                         ::testing::Values(PhysicalInputCase{"off_not_headed", false, false, false},
                                           PhysicalInputCase{"off_headed", false, true, false},
                                           PhysicalInputCase{"on_not_headed", true, false, false},
                                           PhysicalInputCase{"on_headed", true, true, true}),
                         [](const ::testing::TestParamInfo<PhysicalInputCase>& info) { return info.param.name; });

}  // namespace
}  // namespace companyos::daemon
