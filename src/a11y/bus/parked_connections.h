// Connections an action call went out on, kept open, untouched, until the app is done with
// them. GTK's bridge (at-spi2-atk) answers DoAction first and then runs the action while
// still dispatching that connection; when the action runs a modal dialog (gtk_dialog_run),
// the dispatch lasts until the dialog closes. If anything is queued on that connection
// meanwhile — another call, or the Disconnected message its closing leaves — the bridge's
// key listener, which runs a main loop of its own for every key the app gets, dispatches
// the connection again and waits forever for the dispatch the app is still in: the app
// hangs for good at the next key press (mousepad's File > Open..., measured). So an
// action's connection is never reused and never closed while a window that appeared after
// the action is still open; it is closed once the app's windows are back to those it had
// then (the dialog closed, so its handler returned), or when the app leaves the bus.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "a11y/bus/sd_bus_handles.h"

namespace companyos::a11y {

class ParkedConnections {
 public:
  // Beyond this many for one app the oldest is closed: a bound on the descriptors an app
  // holds for us (an app in that many nested dialogs is not a case seen).
  static constexpr std::size_t kMaxPerApp = 32;

  // Keeps CONNECTION for the app until none of the windows it has beyond WINDOWS_THEN
  // (the ids of its windows when the action went out) is open.
  void park(const std::string& bus_name, SdBusPtr connection,
            std::vector<std::string> windows_then);
  // The app's windows as a complete listing found them now: closes every connection parked
  // with windows that include them all.
  void settle(const std::string& bus_name, const std::vector<std::string>& windows_now);
  // Closes the connections of apps no longer on the bus.
  void keep_only(const std::vector<std::string>& live_bus_names);
  std::size_t parked(const std::string& bus_name) const;

 private:
  struct Parked {
    SdBusPtr connection;
    std::vector<std::string> windows_then;  // sorted
  };
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<Parked>> by_app_;  // oldest first
};

}  // namespace companyos::a11y
