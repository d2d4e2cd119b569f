// The accessibility bus connection and the per-app connections, shared by every thread.
// Connections are opened without holding the lock (two threads may race to open one; the
// first stored wins), so a hung peer only ever delays the call that waits on it. Bulk reads
// of one app run on pipelines: private sd-bus connections to the app's own address (or the
// bus), pooled between reads.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "a11y/bus/call_scope.h"
#include "a11y/bus/connection_pool.h"
#include "a11y/bus/parked_connections.h"
#include "a11y/bus/peer_credentials.h"
#include "a11y/bus/pipeline.h"
#include "a11y/model.h"
#include "a11y/toolkit/traits.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

inline constexpr const char* kRegistryName = "org.a11y.atspi.Registry";
inline constexpr const char* kRootPath = "/org/a11y/atspi/accessible/root";
inline constexpr const char* kAccessibleInterface = "org.a11y.atspi.Accessible";
inline constexpr const char* kPropertiesInterface = "org.freedesktop.DBus.Properties";
inline constexpr const char* kTableInterface = "org.a11y.atspi.Table";
inline constexpr const char* kTableCellInterface = "org.a11y.atspi.TableCell";
inline constexpr const char* kTextInterface = "org.a11y.atspi.Text";
// The object reference AT-SPI answers for "no object" (no child there, no cell).
inline constexpr const char* kNullObjectPath = "/org/a11y/atspi/null";

struct AppChannel {
  Channel channel;
  bool peer_to_peer = false;
  std::string bus_name;
  std::string address;  // the app's own D-Bus address, else the accessibility bus's
  std::string toolkit;  // Application.ToolkitName and Version ("" when not reported)
  std::string toolkit_version;
  PeerIdentity peer;  // who must be at the other end of a connection to address
  ToolkitTraits traits() const { return toolkit_traits(toolkit, toolkit_version); }
};

class Bus {
 public:
  Bus() = default;
  Bus(const Bus&) = delete;
  Bus& operator=(const Bus&) = delete;

  // The accessibility bus (AT_SPI_BUS_ADDRESS, else org.a11y.Bus.GetAddress on the
  // session bus), opened on first use and reopened once closed. BUS_UNAVAILABLE on failure.
  Result<Channel> bus_channel(CallScope& scope);
  // BUS_UNAVAILABLE unless the bus answers and org.a11y.atspi.Registry has an owner.
  Status probe(CallScope& scope);
  // Where to send calls for one app: its own peer-to-peer connection when its bridge offers
  // one (GetApplicationBusAddress, which also makes GTK3's bridge build its cache), else the
  // bus. APP_UNRESPONSIVE when the app does not answer before the scope's deadline.
  Result<AppChannel> app_channel(CallScope& scope, const std::string& bus_name);
  // A pipeline to the app with the given deadline: on its own address where it has one,
  // else through the bus. BUS_UNAVAILABLE when no connection can be opened.
  Result<Pipeline> pipeline(const AppChannel& app, Deadline deadline);
  // Both in one step, under one deadline: the app's channel, then a pipeline on it.
  struct AppPipeline {
    AppChannel app;
    Pipeline pipeline;
  };
  Result<AppPipeline> app_pipeline(const std::string& bus_name, Deadline deadline);
  // Drops the cached channel of an app (e.g. after it stopped answering on it).
  void forget_app(const std::string& bus_name);
  // Where an action's pipeline leaves its connection: parked until the app's windows are
  // back to those it has now (bus/parked_connections.h says why).
  Pipeline::Recycle parking(const std::string& bus_name) const;

  // Last name an app reported, so an app that stopped answering is still listed by name.
  void remember_app_name(const std::string& bus_name, const std::string& name);
  std::string known_app_name(const std::string& bus_name) const;
  // The bus names of the apps last seen named app_name (case-insensitive).
  std::vector<std::string> bus_names_known_for(const std::string& app_name) const;
  // An app's windows as its last complete listing found them: a window named by its id can
  // be read without listing the desktop first, and an app that stops answering is still
  // listed with them. An id is a function of bus name and object path (read/window_id.h), so
  // it can only ever name that one window; whether it still exists is for the read to find.
  // `not_listed`: the windows past kMaxWindowsPerApp that listing counted but did not read.
  void remember_windows(const std::string& bus_name, std::vector<WindowInfo> windows, std::size_t not_listed);
  std::vector<WindowInfo> known_windows(const std::string& bus_name) const;
  std::size_t known_windows_not_listed(const std::string& bus_name) const;
  std::optional<WindowInfo> known_window(const std::string& id) const;
  // Forgets everything about apps that are no longer on the bus.
  void keep_only(const std::vector<std::string>& live_bus_names);

 private:
  Result<std::string> bus_address(CallScope& scope);
  // A peer-to-peer connection to the address an app gave, when it parses as one AT-SPI
  // uses and the process listening there is the app (peer); else none.
  ConnectionRef direct_channel(CallScope& scope, const std::string& bus_name,
                               const std::string& given_address, const PeerIdentity& peer);

  mutable std::mutex mutex_;
  ConnectionRef connection_;
  std::string address_;  // of connection_
  std::shared_ptr<ReplyRouter> router_;
  std::unordered_map<std::string, AppChannel> app_channels_;
  std::unordered_map<std::string, std::string> app_names_;
  std::unordered_map<std::string, std::vector<WindowInfo>> windows_;  // by bus name
  std::unordered_map<std::string, std::size_t> windows_not_listed_;   // by bus name
  std::unordered_set<std::string> refused_addresses_;  // bus names whose address was logged
  // Pipelines give their connections back through a weak reference to it.
  std::shared_ptr<ConnectionPool> pool_ = std::make_shared<ConnectionPool>();
  std::shared_ptr<ParkedConnections> parked_ = std::make_shared<ParkedConnections>();
};

// Error for a deadline that passed while waiting on an app.
Error app_unresponsive(const std::string& app, const std::string& bus_name,
                       std::chrono::steady_clock::time_point started,
                       std::string_view while_doing);

}  // namespace companyos::a11y
