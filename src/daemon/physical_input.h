// The physical-input gate and lock, shared by every XTest route (press, click --headed).
// XTest input is refused unless the setting physical_input is true and the request says
// headed; and input from two workers at once could interleave keys and clicks or borrow
// the same keycode, so each holds the lock from activating its window to its last event.
#pragma once

#include <mutex>

#include "core/result.h"

namespace companyos::store {
class Settings;
}

namespace companyos::daemon {

// POLICY_DENIED {reason: "physical_input_disabled"} unless both hold.
Status check_physical_input(store::Settings& settings, bool headed);

std::mutex& physical_input_mutex();

}  // namespace companyos::daemon
