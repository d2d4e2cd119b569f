#include "a11y/bus/connection_pool.h"

#include <chrono>
#include <cstdint>
#include <utility>

#include <spdlog/spdlog.h>

namespace companyos::a11y {
namespace {

// Pipelines end their calls by their own deadline; sd-bus's per-call timeout (25 s by
// default) must never end one first.
constexpr std::uint64_t kNoCallTimeoutUsec =
    std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::hours(24)).count();

SdBusPtr open_connection(const std::string& address, bool message_bus) {
  sd_bus* raw = nullptr;
  if (sd_bus_new(&raw) < 0) return nullptr;
  SdBusPtr bus(raw);
  if (sd_bus_set_address(bus.get(), address.c_str()) < 0 ||
      sd_bus_set_bus_client(bus.get(), message_bus) < 0 ||
      // AT-SPI passes no file descriptors; not negotiating them saves a handshake step.
      sd_bus_negotiate_fds(bus.get(), 0) < 0 ||
      sd_bus_set_method_call_timeout(bus.get(), kNoCallTimeoutUsec) < 0 ||
      sd_bus_start(bus.get()) < 0) {
    return nullptr;
  }
  return bus;
}

// Reads what arrived while the connection was idle (nothing is expected; a signal would be
// dropped) and tells whether it is still open.
bool still_open(sd_bus* bus) {
  for (;;) {
    const int processed = sd_bus_process(bus, nullptr);
    if (processed < 0) return false;
    if (processed == 0) break;
  }
  return sd_bus_is_open(bus) > 0;
}

}  // namespace

SdBusPtr ConnectionPool::take(const std::string& address, bool message_bus,
                              const PeerIdentity& peer) {
  for (;;) {
    SdBusPtr idle;
    {
      std::lock_guard lock(mutex_);
      auto found = idle_.find(address);
      if (found == idle_.end() || found->second.empty()) break;
      idle = std::move(found->second.back());
      found->second.pop_back();
    }
    if (still_open(idle.get()) && peer_is(sd_bus_get_fd(idle.get()), peer)) return idle;
  }
  SdBusPtr opened = open_connection(address, message_bus);
  if (!opened) return nullptr;
  std::string why;
  if (!peer_is(sd_bus_get_fd(opened.get()), peer, &why)) {
    spdlog::warn("a11y: not using a connection to {}: {}", address, why);
    return nullptr;
  }
  return opened;
}

void ConnectionPool::give_back(const std::string& address, SdBusPtr connection) {
  if (!connection) return;
  std::lock_guard lock(mutex_);
  auto& idle = idle_[address];
  // Over the limit the connection is closed as it goes out of scope here.
  if (idle.size() < kIdlePerAddress) idle.push_back(std::move(connection));
}

void ConnectionPool::drop(const std::string& address) {
  std::vector<SdBusPtr> closing;
  {
    std::lock_guard lock(mutex_);
    auto found = idle_.find(address);
    if (found == idle_.end()) return;
    closing = std::move(found->second);
    idle_.erase(found);
  }
}

void ConnectionPool::keep_only(const std::unordered_set<std::string>& addresses) {
  std::vector<SdBusPtr> closing;
  {
    std::lock_guard lock(mutex_);
    for (auto entry = idle_.begin(); entry != idle_.end();) {
      if (addresses.contains(entry->first)) {
        ++entry;
        continue;
      }
      for (SdBusPtr& connection : entry->second) closing.push_back(std::move(connection));
      entry = idle_.erase(entry);
    }
  }
}

}  // namespace companyos::a11y
