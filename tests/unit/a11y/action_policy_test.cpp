#include "a11y/action_policy.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

StateSet states(std::initializer_list<int> list) {
  StateSet set = 0;
  for (int state : list) set |= StateSet{1} << state;
  return set;
}

TEST(ActionPolicy, RefusesDisabledElementsAndPasswordsWithoutSecret) {
  const StateSet enabled = states({ATSPI_STATE_ENABLED, ATSPI_STATE_SENSITIVE, ATSPI_STATE_FOCUSABLE});
  const StateSet sensitive_only = states({ATSPI_STATE_SENSITIVE});
  const StateSet enabled_only = states({ATSPI_STATE_ENABLED});
  const StateSet disabled = states({ATSPI_STATE_FOCUSABLE, ATSPI_STATE_VISIBLE, ATSPI_STATE_SHOWING});
  struct Case {
    const char* what;
    ActionKind kind;
    std::uint32_t role;
    StateSet states;
    bool secret;
    const char* refusal;  // details.reason, or nullptr when allowed
  };
  const Case cases[] = {
      {"enabled button", ActionKind::kClick, ATSPI_ROLE_PUSH_BUTTON, enabled, false, nullptr},
      {"sensitive only", ActionKind::kClick, ATSPI_ROLE_PUSH_BUTTON, sensitive_only, false, nullptr},
      {"enabled only", ActionKind::kToggle, ATSPI_ROLE_CHECK_BOX, enabled_only, false, nullptr},
      {"disabled button", ActionKind::kClick, ATSPI_ROLE_PUSH_BUTTON, disabled, false, "not_enabled"},
      {"no states at all", ActionKind::kFocus, ATSPI_ROLE_TEXT, 0, false, "not_enabled"},
      {"disabled entry", ActionKind::kSetValue, ATSPI_ROLE_TEXT, disabled, false, "not_enabled"},
      {"password without secret", ActionKind::kSetValue, ATSPI_ROLE_PASSWORD_TEXT, enabled, false,
       "secret_required"},
      {"password type without secret", ActionKind::kType, ATSPI_ROLE_PASSWORD_TEXT, enabled, false,
       "secret_required"},
      {"password with secret", ActionKind::kSetValue, ATSPI_ROLE_PASSWORD_TEXT, enabled, true, nullptr},
      {"password focus needs no secret", ActionKind::kFocus, ATSPI_ROLE_PASSWORD_TEXT, enabled, false,
       nullptr},
      {"disabled password, secret", ActionKind::kType, ATSPI_ROLE_PASSWORD_TEXT, disabled, true,
       "not_enabled"},
      {"secret on plain text", ActionKind::kSetValue, ATSPI_ROLE_TEXT, enabled, true, nullptr},
  };
  for (const Case& c : cases) {
    const Status status = check_action_policy(c.kind, c.role, c.states, c.secret);
    if (c.refusal == nullptr) {
      EXPECT_TRUE(status.ok()) << c.what << ": " << status.error().message;
      continue;
    }
    ASSERT_FALSE(status.ok()) << c.what;
    EXPECT_EQ(status.error().code, ErrorCode::kPolicyDenied) << c.what;
    EXPECT_EQ(status.error().details["reason"], c.refusal) << c.what;
  }
}

}  // namespace
}  // namespace companyos::a11y
