#include "a11y/details.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(Details, PasswordTextIsNeverRead) {
  struct Case {
    AtspiRole role;
    std::uint32_t interfaces;
    ValueSource expected;
  };
  const Case cases[] = {
      {ATSPI_ROLE_PASSWORD_TEXT, kInterfaceText | kInterfaceEditableText, ValueSource::kWithheld},
      {ATSPI_ROLE_PASSWORD_TEXT, kInterfaceValue, ValueSource::kWithheld},
      {ATSPI_ROLE_PASSWORD_TEXT, 0, ValueSource::kWithheld},
      {ATSPI_ROLE_TEXT, kInterfaceText, ValueSource::kText},
      {ATSPI_ROLE_SPIN_BUTTON, kInterfaceText | kInterfaceValue, ValueSource::kValue},
      {ATSPI_ROLE_SLIDER, kInterfaceValue, ValueSource::kValue},
      {ATSPI_ROLE_PUSH_BUTTON, kInterfaceAction | kInterfaceComponent, ValueSource::kNone},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(value_source(c.role, c.interfaces), c.expected) << role_name(c.role);
  }
}

TEST(Details, ValuesPrintInShortestForm) {
  struct Case {
    double value;
    const char* expected;
  };
  const Case cases[] = {{0, "0"}, {50, "50"}, {0.25, "0.25"}, {-3.5, "-3.5"}, {1e21, "1e+21"}};
  for (const Case& c : cases) EXPECT_EQ(format_value(c.value), c.expected);
}

TEST(Details, VocabularyNamesRolesStatesAndInterfaces) {
  EXPECT_EQ(role_name(ATSPI_ROLE_PUSH_BUTTON), "push button");
  EXPECT_EQ(role_name(ATSPI_ROLE_PASSWORD_TEXT), "password text");
  EXPECT_EQ(role_name(100000), "unknown");
  EXPECT_EQ(role_from_name("push button"), ATSPI_ROLE_PUSH_BUTTON);
  EXPECT_EQ(role_from_name("no such role"), -1);
  EXPECT_EQ(state_names((StateSet{1} << ATSPI_STATE_MULTI_LINE) | (StateSet{1} << ATSPI_STATE_ACTIVE)),
            (std::vector<std::string>{"active", "multi-line"}));
  EXPECT_EQ(interface_bit("org.a11y.atspi.Action"), kInterfaceAction);
  EXPECT_EQ(interface_bit("org.a11y.atspi.Hypertext"), 0u);
  EXPECT_EQ(interface_bit("Action"), 0u);
}

}  // namespace
}  // namespace companyos::a11y
