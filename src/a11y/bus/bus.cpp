#include "a11y/bus.h"

#include <unordered_set>
#include <utility>

#include <spdlog/spdlog.h>

#include "a11y/bus/peer_address.h"
#include "a11y/bus/variant_fields.h"

namespace companyos::a11y {
namespace {

constexpr const char* kBusSuggestion =
    "start the desktop's accessibility bus (at-spi-bus-launcher) and registry "
    "(at-spi2-registryd), or set AT_SPI_BUS_ADDRESS";

Error bus_unavailable(std::string message, const GError* error = nullptr) {
  nlohmann::json details = nlohmann::json::object();
  if (error != nullptr) details["cause"] = error->message;
  return make_error(ErrorCode::kBusUnavailable, std::move(message), std::move(details),
                    kBusSuggestion);
}

// The socket under a GDBus connection, or -1 (a connection over another kind of stream).
int socket_fd_of(GDBusConnection* connection) {
  GIOStream* stream = g_dbus_connection_get_stream(connection);
  if (!G_IS_SOCKET_CONNECTION(stream)) return -1;
  return g_socket_get_fd(g_socket_connection_get_socket(G_SOCKET_CONNECTION(stream)));
}

}  // namespace

Error app_unresponsive(const std::string& app, const std::string& bus_name,
                       std::chrono::steady_clock::time_point started,
                       std::string_view while_doing) {
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  return make_error(ErrorCode::kAppUnresponsive,
                    "app " + (app.empty() ? bus_name : app) + " did not answer in time",
                    {{"app", app}, {"bus_name", bus_name}, {"waited_ms", waited.count()},
                     {"while", std::string(while_doing)}},
                    "the app may be busy or stopped; try again later or with a longer timeout",
                    Retry::kSafe);
}

Result<std::string> Bus::bus_address(CallScope& scope) {
  std::string given;
  if (const char* address = g_getenv("AT_SPI_BUS_ADDRESS"); address != nullptr && *address) {
    given = address;
  } else {
    ConnectionRef session;
    std::string session_error;
    scope.session_bus([&](ConnectionRef connection, const GError* error) {
      session = std::move(connection);
      if (error != nullptr) session_error = error->message;
    });
    scope.wait();
    if (!session) {
      auto error = bus_unavailable("no session bus to ask for the accessibility bus");
      if (!session_error.empty()) error.details["cause"] = session_error;
      return error;
    }
    std::string failure;
    scope.call(Channel{session, "org.a11y.Bus", nullptr}, "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
               nullptr, [&](GVariant* reply, const GError* error) {
                 if (error != nullptr) {
                   failure = error->message;
                 } else if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(s)"))) {
                   given = g_variant_get_string(child_of(reply, 0).get(), nullptr);
                 }
               });
    scope.wait();
    if (given.empty()) {
      auto error = bus_unavailable("the session bus did not give an accessibility bus address");
      if (!failure.empty()) error.details["cause"] = failure;
      return error;
    }
  }
  // Whoever owns org.a11y.Bus on the session bus says where the bus is: data, like an
  // app's address (bus/peer_address.h).
  auto parsed = parse_peer_address(given);
  if (!parsed) {
    auto error = bus_unavailable("the accessibility bus address is not one this daemon connects to");
    error.details["kind"] = "bad_bus_address";
    error.details["reason"] = parsed.error().details["reason"];
    return error;
  }
  return rebuilt_address(*parsed);
}

Result<Channel> Bus::bus_channel(CallScope& scope) {
  {
    std::lock_guard lock(mutex_);
    if (connection_ && !g_dbus_connection_is_closed(connection_.get())) {
      return Channel{connection_, {}, router_};
    }
  }
  auto address = bus_address(scope);
  if (!address) return std::move(address).take_error();
  ConnectionRef opened;
  std::string failure;
  scope.open_connection(*address, true, [&](ConnectionRef connection, const GError* error) {
    opened = std::move(connection);
    if (error != nullptr) failure = error->message;
  });
  scope.wait();
  if (!opened) {
    auto error = bus_unavailable("cannot connect to the accessibility bus");
    error.details["address"] = *address;
    if (!failure.empty()) error.details["cause"] = failure;
    return error;
  }
  if (std::string why; !peer_is(socket_fd_of(opened.get()), own_user_peer(), &why)) {
    g_dbus_connection_close(opened.get(), nullptr, nullptr, nullptr);
    auto error = bus_unavailable("the accessibility bus is not run by this user");
    error.details["address"] = *address;
    error.details["cause"] = why;
    return error;
  }
  auto router = ReplyRouter::attach(opened.get());
  std::lock_guard lock(mutex_);
  if (!connection_ || g_dbus_connection_is_closed(connection_.get())) {
    connection_ = opened;
    router_ = router;
    address_ = *address;
  }
  return Channel{connection_, {}, router_};
}

Status Bus::probe(CallScope& scope) {
  auto bus = bus_channel(scope);
  if (!bus) return std::move(bus).take_error();
  bool owned = false;
  std::string failure = "no answer before the deadline";
  Channel daemon{bus->connection, "org.freedesktop.DBus", bus->router};
  scope.call(daemon, "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
             g_variant_new("(s)", kRegistryName), [&](GVariant* reply, const GError* error) {
               owned = reply != nullptr;
               if (error != nullptr) failure = error->message;
             });
  scope.wait();
  if (!owned) {
    auto error = bus_unavailable("the accessibility registry is not running");
    error.details["cause"] = failure;
    return error;
  }
  return ok_status();
}

Result<AppChannel> Bus::app_channel(CallScope& scope, const std::string& bus_name) {
  {
    std::lock_guard lock(mutex_);
    auto cached = app_channels_.find(bus_name);
    if (cached != app_channels_.end()) {
      if (!g_dbus_connection_is_closed(cached->second.channel.connection.get())) {
        return cached->second;
      }
      app_channels_.erase(cached);
    }
  }
  auto bus = bus_channel(scope);
  if (!bus) return std::move(bus).take_error();
  const Channel via_bus{bus->connection, bus_name, bus->router};
  AppChannel channel{via_bus, false, bus_name, {}, {}, {}, own_user_peer()};
  std::string address;
  bool answered = false;
  bool gone = false;
  scope.call(via_bus, kRootPath, "org.a11y.atspi.Application", "GetApplicationBusAddress",
             nullptr, [&](GVariant* reply, const GError* error) {
               answered = !is_cancelled(error);
               gone = has_no_owner(error);
               if (reply != nullptr && g_variant_is_of_type(reply, G_VARIANT_TYPE("(s)"))) {
                 address = g_variant_get_string(child_of(reply, 0).get(), nullptr);
               }
             });
  // The process that owns the name: the only peer a connection to the app may reach.
  std::optional<pid_t> owner_pid;
  scope.call({bus->connection, "org.freedesktop.DBus", bus->router}, "/org/freedesktop/DBus",
             "org.freedesktop.DBus", "GetConnectionUnixProcessID", g_variant_new("(s)", bus_name.c_str()),
             [&](GVariant* reply, const GError*) {
               if (reply != nullptr && g_variant_is_of_type(reply, G_VARIANT_TYPE("(u)"))) {
                 owner_pid = static_cast<pid_t>(g_variant_get_uint32(child_of(reply, 0).get()));
               }
             });
  // The toolkit decides which shortcuts later reads may take (see read/toolkit.h).
  for (auto [property, field] : {std::pair{"ToolkitName", &channel.toolkit},
                                 std::pair{"Version", &channel.toolkit_version}}) {
    scope.call(via_bus, kRootPath, kPropertiesInterface, "Get",
               g_variant_new("(ss)", "org.a11y.atspi.Application", property),
               // An init-capture: clang before 16 cannot capture a structured binding itself.
               [field = field](GVariant* reply, const GError*) { *field = property_string(reply); });
  }
  const auto started = std::chrono::steady_clock::now();
  scope.wait();
  if (!answered) {
    return app_unresponsive(known_app_name(bus_name), bus_name, started, "connecting");
  }
  if (gone) {
    return make_error(ErrorCode::kAppNotFound, "the app left the accessibility bus",
                      {{"bus_name", bus_name}}, "list apps again");
  }
  {
    std::lock_guard lock(mutex_);
    channel.address = address_;
  }
  if (!address.empty() && owner_pid) {
    if (auto direct = direct_channel(scope, bus_name, address, own_user_peer(owner_pid))) {
      channel.channel = Channel{direct, {}, ReplyRouter::attach(direct.get())};
      channel.peer_to_peer = true;
      channel.address = rebuilt_address(*parse_peer_address(address));
      channel.peer = own_user_peer(owner_pid);
    }
  }
  std::lock_guard lock(mutex_);
  // Another thread may have connected meanwhile; everyone uses the first one stored.
  return app_channels_.try_emplace(bus_name, channel).first->second;
}

ConnectionRef Bus::direct_channel(CallScope& scope, const std::string& bus_name,
                                  const std::string& given_address, const PeerIdentity& peer) {
  // Without a direct connection the bus still works, one hop slower: every refusal here
  // leaves the app to be read through the bus, and is logged once per app.
  auto refuse = [&](const std::string& why) {
    std::lock_guard lock(mutex_);
    // The bus name, not the app's name: only the former's characters are known harmless.
    if (refused_addresses_.insert(bus_name).second) {
      spdlog::warn("a11y: bad_app_address: not connecting to the address the app on {} gave ({}); "
                   "reading it through the bus",
                   bus_name, why);
    }
    return ConnectionRef();
  };
  auto parsed = parse_peer_address(given_address);
  if (!parsed) return refuse(parsed.error().details.value("reason", std::string()));
  ConnectionRef direct;
  scope.open_connection(rebuilt_address(*parsed), false, [&](ConnectionRef connection, const GError*) {
    direct = std::move(connection);
  });
  scope.wait();
  if (!direct) return direct;
  if (std::string why; !peer_is(socket_fd_of(direct.get()), peer, &why)) {
    g_dbus_connection_close(direct.get(), nullptr, nullptr, nullptr);
    return refuse(why);
  }
  return direct;
}

Result<Bus::AppPipeline> Bus::app_pipeline(const std::string& bus_name, Deadline deadline) {
  auto app = [&] {
    CallScope scope(deadline);
    return app_channel(scope, bus_name);
  }();
  if (!app) return std::move(app).take_error();
  auto opened = pipeline(*app, deadline);
  if (!opened) return std::move(opened).take_error();
  return AppPipeline{std::move(app).value(), std::move(opened).value()};
}

Result<Pipeline> Bus::pipeline(const AppChannel& app, Deadline deadline) {
  auto recycle_to = [pool = std::weak_ptr(pool_)](std::string address) {
    return [pool, address = std::move(address)](SdBusPtr connection) {
      if (auto alive = pool.lock()) alive->give_back(address, std::move(connection));
    };
  };
  if (app.peer_to_peer) {
    if (SdBusPtr direct = pool_->take(app.address, false, app.peer)) {
      return Pipeline(std::move(direct), {}, deadline, recycle_to(app.address));
    }
  }
  std::string bus_address;
  {
    std::lock_guard lock(mutex_);
    bus_address = address_;
  }
  // No address of its own, or it refused us: the bus routes to the app, one hop slower.
  if (SdBusPtr shared = bus_address.empty() ? nullptr : pool_->take(bus_address, true, own_user_peer())) {
    return Pipeline(std::move(shared), app.bus_name, deadline, recycle_to(bus_address));
  }
  auto error = bus_unavailable("cannot connect to the accessibility bus");
  error.details["address"] = bus_address;
  return error;
}

void Bus::remember_windows(const std::string& bus_name, std::vector<WindowInfo> windows,
                           std::size_t not_listed) {
  std::vector<std::string> ids;
  ids.reserve(windows.size());
  for (const WindowInfo& window : windows) ids.push_back(window.id);
  {
    std::lock_guard lock(mutex_);
    windows_.insert_or_assign(bus_name, std::move(windows));
    if (not_listed > 0) {
      windows_not_listed_.insert_or_assign(bus_name, not_listed);
    } else {
      windows_not_listed_.erase(bus_name);
    }
  }
  parked_->settle(bus_name, ids);
}

Pipeline::Recycle Bus::parking(const std::string& bus_name) const {
  std::vector<std::string> windows_then;
  for (const WindowInfo& window : known_windows(bus_name)) windows_then.push_back(window.id);
  return [parked = std::weak_ptr(parked_), bus_name,
          windows_then = std::move(windows_then)](SdBusPtr connection) {
    if (auto alive = parked.lock()) alive->park(bus_name, std::move(connection), windows_then);
  };
}

std::vector<WindowInfo> Bus::known_windows(const std::string& bus_name) const {
  std::lock_guard lock(mutex_);
  auto found = windows_.find(bus_name);
  return found == windows_.end() ? std::vector<WindowInfo>{} : found->second;
}

std::vector<std::string> Bus::bus_names_known_for(const std::string& app_name) const {
  std::vector<std::string> names;
  std::lock_guard lock(mutex_);
  for (const auto& [bus_name, name] : app_names_) {
    if (!app_name.empty() && g_ascii_strcasecmp(name.c_str(), app_name.c_str()) == 0) names.push_back(bus_name);
  }
  return names;
}

std::size_t Bus::known_windows_not_listed(const std::string& bus_name) const {
  std::lock_guard lock(mutex_);
  auto found = windows_not_listed_.find(bus_name);
  return found == windows_not_listed_.end() ? 0 : found->second;
}

std::optional<WindowInfo> Bus::known_window(const std::string& id) const {
  std::lock_guard lock(mutex_);
  for (const auto& [bus_name, windows] : windows_) {
    for (const WindowInfo& window : windows) {
      if (window.id == id) return window;
    }
  }
  return std::nullopt;
}

void Bus::forget_app(const std::string& bus_name) {
  std::lock_guard lock(mutex_);
  windows_.erase(bus_name);
  auto found = app_channels_.find(bus_name);
  if (found == app_channels_.end()) return;
  if (found->second.peer_to_peer) pool_->drop(found->second.address);
  app_channels_.erase(found);
}

void Bus::remember_app_name(const std::string& bus_name, const std::string& name) {
  std::lock_guard lock(mutex_);
  app_names_[bus_name] = name;
}

std::string Bus::known_app_name(const std::string& bus_name) const {
  std::lock_guard lock(mutex_);
  auto it = app_names_.find(bus_name);
  return it == app_names_.end() ? std::string() : it->second;
}

void Bus::keep_only(const std::vector<std::string>& live_bus_names) {
  const std::unordered_set<std::string> live(live_bus_names.begin(), live_bus_names.end());
  std::unordered_set<std::string> addresses;
  std::lock_guard lock(mutex_);
  std::erase_if(app_channels_, [&](const auto& entry) { return !live.contains(entry.first); });
  addresses.insert(address_);
  for (const auto& [bus_name, channel] : app_channels_) addresses.insert(channel.address);
  pool_->keep_only(addresses);
  std::erase_if(app_names_, [&](const auto& entry) { return !live.contains(entry.first); });
  std::erase_if(refused_addresses_, [&](const std::string& name) { return !live.contains(name); });
  std::erase_if(windows_, [&](const auto& entry) { return !live.contains(entry.first); });
  std::erase_if(windows_not_listed_, [&](const auto& entry) { return !live.contains(entry.first); });
  parked_->keep_only(live_bus_names);
}

}  // namespace companyos::a11y
