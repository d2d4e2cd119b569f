#include "a11y/vocabulary.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(StateFromName, StateNamesAreTheSnapshotsNicks) {
  EXPECT_EQ(state_from_name("checked"), ATSPI_STATE_CHECKED);
  EXPECT_EQ(state_from_name("focused"), ATSPI_STATE_FOCUSED);
  EXPECT_EQ(state_from_name("multi-line"), ATSPI_STATE_MULTI_LINE);
  EXPECT_FALSE(state_from_name("Checked").has_value());
  EXPECT_FALSE(state_from_name("").has_value());
  EXPECT_FALSE(state_from_name("shiny").has_value());
}

// Only states a snapshot can show have names: the enum's bounds are not states.
TEST(StateFromName, EnumBoundsAreNotStates) {
  EXPECT_FALSE(state_from_name("invalid").has_value());
  EXPECT_FALSE(state_from_name("last-defined").has_value());
}

// Every name state_names prints is read back as its own state, and nothing else is.
TEST(StateFromName, InvertsStateNames) {
  for (int state = 0; state < 64; ++state) {
    const auto names = state_names(StateSet{1} << state);
    if (names.empty()) continue;
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(state_from_name(names.front()), state) << names.front();
  }
}

}  // namespace
}  // namespace companyos::a11y
