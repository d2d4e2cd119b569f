// The physical-input gate, shared by every XTest route (press, click --headed): XTest
// input is refused unless the setting physical_input is true and the request says headed.
// The lock every route holds while it types or clicks is desktop/input_lock.h.
#pragma once

#include "companyos/result.h"

namespace companyos::store {
class Settings;
}

namespace companyos::daemon {

// POLICY_DENIED {reason: "physical_input_disabled"} unless both hold.
Status check_physical_input(store::Settings& settings, bool headed);

}  // namespace companyos::daemon
