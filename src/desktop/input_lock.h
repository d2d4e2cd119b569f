// Input from two workers at once could interleave keys and clicks or borrow the same
// keycode: every XTest route (press, click --headed, an automation's press step) holds this
// lock from activating its window to its last event.
#pragma once

#include <mutex>

namespace companyos::desktop {

std::mutex& physical_input_mutex();

}  // namespace companyos::desktop
