#include "a11y/act/activation_ledger.h"

#include <algorithm>
#include <iterator>

namespace companyos::a11y {

ActivationLedger::Clock::duration ActivationLedger::reserve(const std::string& element,
                                                            Clock::time_point now,
                                                            Clock::duration spacing) {
  std::lock_guard lock(mutex_);
  if (last_.size() > kPruneAbove) prune(now);
  Clock::duration wait{0};
  if (const auto it = last_.find(element); it != last_.end()) {
    wait = std::max(Clock::duration{0}, it->second + spacing - now);
  }
  last_.insert_or_assign(element, now + wait);
  return wait;
}

void ActivationLedger::prune(Clock::time_point now) {
  std::erase_if(last_, [now](const auto& entry) { return entry.second + kForgetAfter < now; });
}

}  // namespace companyos::a11y
