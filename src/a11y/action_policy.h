// Who may be acted on: a disabled element (neither enabled nor sensitive) is refused, and
// so is writing text into a password element unless the request says the text is secret.
// Password-manager apps are refused earlier, at resolution (policy.h). Pure.
#pragma once

#include <cstdint>

#include "a11y/act/action_kind.h"
#include "a11y/vocabulary.h"
#include "companyos/result.h"

namespace companyos::a11y {

// POLICY_DENIED with details.reason "secret_required" or "not_enabled", else ok.
Status check_action_policy(ActionKind kind, std::uint32_t role, StateSet states, bool secret);

}  // namespace companyos::a11y
