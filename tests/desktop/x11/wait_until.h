// Polling with a deadline, for conditions the desktop reaches in its own time.
#pragma once

#include <chrono>
#include <thread>

namespace companyos::x11::testing {

// Generous on purpose: a loaded 2-core machine can stall an app for seconds.
inline constexpr std::chrono::milliseconds kDesktopDeadline{20'000};

// Calls `condition` until it returns true or `deadline` passes; returns its last answer.
template <typename Condition>
bool wait_until(Condition condition, std::chrono::milliseconds deadline = kDesktopDeadline,
                std::chrono::milliseconds interval = std::chrono::milliseconds(10)) {
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (true) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= give_up) return condition();
    std::this_thread::sleep_for(interval);
  }
}

}  // namespace companyos::x11::testing
