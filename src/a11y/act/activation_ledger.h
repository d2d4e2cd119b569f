// When an element may be activated again. GTK4 shows a button's activation for 250 ms
// (ACTIVATE_TIMEOUT), emits "clicked" when that time is up, and drops any other
// activation of the same button meanwhile — so a second click sent sooner is answered like
// the first yet never happens (a calculator's "1" pressed twice shows "1"). The ledger
// spaces activations of each element instead (ToolkitTraits::button_activation_spacing).
// Thread-safe; the time is passed in.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace companyos::a11y {

class ActivationLedger {
 public:
  using Clock = std::chrono::steady_clock;

  // How long to wait from NOW before activating ELEMENT (a bus name and path), so that it
  // comes at least SPACING after the element's previous activation; books that moment
  // as the element's latest activation. Zero for an element not activated lately.
  Clock::duration reserve(const std::string& element, Clock::time_point now,
                          Clock::duration spacing);

 private:
  // Bookings this far in the past can no longer delay anything and are forgotten.
  static constexpr auto kForgetAfter = std::chrono::seconds(10);
  static constexpr std::size_t kPruneAbove = 256;
  void prune(Clock::time_point now);

  std::mutex mutex_;
  std::unordered_map<std::string, Clock::time_point> last_;
};

}  // namespace companyos::a11y
