#include "a11y/action_policy.h"

#include <atspi/atspi.h>

namespace companyos::a11y {

Status check_action_policy(ActionKind kind, std::uint32_t role, StateSet states, bool secret) {
  const bool writes_text = kind == ActionKind::kSetValue || kind == ActionKind::kType;
  if (writes_text && is_password_role(role) && !secret) {
    return make_error(ErrorCode::kPolicyDenied, "the element is a password field",
                      {{"reason", "secret_required"}},
                      "pass secret=true (--secret) to write it; the value is then never shown");
  }
  if (!has_state(states, ATSPI_STATE_ENABLED) && !has_state(states, ATSPI_STATE_SENSITIVE)) {
    return make_error(ErrorCode::kPolicyDenied, "the element is not enabled",
                      {{"reason", "not_enabled"}, {"states", state_names(states)}},
                      "wait until the app enables it");
  }
  return ok_status();
}

}  // namespace companyos::a11y
