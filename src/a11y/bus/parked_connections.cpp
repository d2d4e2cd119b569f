#include "a11y/bus/parked_connections.h"

#include <algorithm>
#include <unordered_set>

namespace companyos::a11y {

void ParkedConnections::park(const std::string& bus_name, SdBusPtr connection,
                             std::vector<std::string> windows_then) {
  if (!connection) return;
  std::sort(windows_then.begin(), windows_then.end());
  std::vector<Parked> closing;
  {
    std::lock_guard lock(mutex_);
    auto& parked = by_app_[bus_name];
    parked.push_back(Parked{std::move(connection), std::move(windows_then)});
    while (parked.size() > kMaxPerApp) {
      closing.push_back(std::move(parked.front()));
      parked.erase(parked.begin());
    }
  }
  // Closed outside the lock: closing is a system call per connection.
}

void ParkedConnections::settle(const std::string& bus_name,
                               const std::vector<std::string>& windows_now) {
  std::vector<std::string> now = windows_now;
  std::sort(now.begin(), now.end());
  std::vector<Parked> closing;
  {
    std::lock_guard lock(mutex_);
    auto found = by_app_.find(bus_name);
    if (found == by_app_.end()) return;
    auto& parked = found->second;
    for (auto it = parked.begin(); it != parked.end();) {
      if (std::includes(it->windows_then.begin(), it->windows_then.end(), now.begin(),
                        now.end())) {
        closing.push_back(std::move(*it));
        it = parked.erase(it);
      } else {
        ++it;
      }
    }
    if (parked.empty()) by_app_.erase(found);
  }
}

void ParkedConnections::keep_only(const std::vector<std::string>& live_bus_names) {
  const std::unordered_set<std::string> live(live_bus_names.begin(), live_bus_names.end());
  std::vector<Parked> closing;
  {
    std::lock_guard lock(mutex_);
    for (auto it = by_app_.begin(); it != by_app_.end();) {
      if (live.contains(it->first)) {
        ++it;
        continue;
      }
      for (Parked& parked : it->second) closing.push_back(std::move(parked));
      it = by_app_.erase(it);
    }
  }
}

std::size_t ParkedConnections::parked(const std::string& bus_name) const {
  std::lock_guard lock(mutex_);
  auto found = by_app_.find(bus_name);
  return found == by_app_.end() ? 0 : found->second.size();
}

}  // namespace companyos::a11y
