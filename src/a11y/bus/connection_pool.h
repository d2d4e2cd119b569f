// Idle private sd-bus connections by D-Bus address, so a snapshot does not pay for
// connecting and authenticating each time. A connection serves one thread at a time (it
// is taken out while in use); the lock is held only to take or give one back, never while
// connecting or waiting on a peer.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "a11y/bus/peer_credentials.h"
#include "a11y/bus/sd_bus_handles.h"

namespace companyos::a11y {

class ConnectionPool {
 public:
  // An idle connection to address, else a new one. Opening does not wait for the peer:
  // authentication (and Hello on a message bus) completes inside the first
  // Pipeline::wait(), under that pipeline's deadline; the socket is connected at once, so
  // its peer is checked before the connection is handed out. nullptr when it cannot
  // connect or the peer is not `peer` (address must be one rebuilt by peer_address.h).
  SdBusPtr take(const std::string& address, bool message_bus, const PeerIdentity& peer);
  // Keeps an open connection for reuse (a few per address; others are closed).
  void give_back(const std::string& address, SdBusPtr connection);
  // Closes the idle connections to address (e.g. an app that left the bus).
  void drop(const std::string& address);
  // Closes the idle connections to every other address: a connection given back after its
  // app left would otherwise stay open for good.
  void keep_only(const std::unordered_set<std::string>& addresses);

 private:
  static constexpr std::size_t kIdlePerAddress = 4;
  std::mutex mutex_;
  std::unordered_map<std::string, std::vector<SdBusPtr>> idle_;
};

}  // namespace companyos::a11y
