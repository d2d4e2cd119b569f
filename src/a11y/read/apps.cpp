#include "a11y/apps.h"

#include <algorithm>
#include <memory>

#include <atspi/atspi.h>

#include "a11y/bus/variant_fields.h"
#include "a11y/policy.h"
#include "a11y/read/window_id.h"

namespace companyos::a11y {
namespace {

// Replies of one app; filled by handlers, read after the scope's wait().
struct AppProbe {
  AppInfo info;
  int unanswered = 0;  // calls cancelled by the deadline
  bool gone = false;
  bool owner_asked = false;  // a call went unanswered by a peer that may have left
};

std::string string_in(GVariant* reply) {  // reply (v) holding s, or (s)
  if (reply == nullptr || !g_variant_is_container(reply) || g_variant_n_children(reply) != 1) {
    return {};
  }
  VariantPtr value = child_of(reply, 0);
  if (g_variant_is_of_type(value.get(), G_VARIANT_TYPE_VARIANT)) {
    value.reset(g_variant_get_variant(value.get()));
  }
  if (!g_variant_is_of_type(value.get(), G_VARIANT_TYPE_STRING)) return {};
  return g_variant_get_string(value.get(), nullptr);
}

class AppLister {
 public:
  AppLister(CallScope& scope, Channel bus) : scope_(scope), bus_(std::move(bus)) {}

  void start(AppProbe& probe) {
    const std::string& name = probe.info.bus_name;
    call({bus_.connection, "org.freedesktop.DBus", bus_.router}, probe, "/org/freedesktop/DBus",
         "org.freedesktop.DBus", "GetConnectionUnixProcessID", g_variant_new("(s)", name.c_str()),
         [&probe](GVariant* reply) {
           if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(u)"))) {
             probe.info.pid = static_cast<int>(g_variant_get_uint32(child_of(reply, 0).get()));
           }
         });
    // Properties.Get each: GTK's bridge refuses GetAll on the Application interface.
    call(app(probe), probe, kRootPath, kPropertiesInterface, "Get",
         g_variant_new("(ss)", "org.a11y.atspi.Application", "ToolkitName"),
         [&probe](GVariant* reply) { probe.info.toolkit = string_in(reply); });
    call(app(probe), probe, kRootPath, kPropertiesInterface, "Get",
         g_variant_new("(ss)", "org.a11y.atspi.Application", "Version"),
         [&probe](GVariant* reply) { probe.info.toolkit_version = string_in(reply); });
    // Windows are asked for only once the name is known to be allowed, so no title of a
    // password manager's window is ever read.
    call(app(probe), probe, kRootPath, kPropertiesInterface, "Get",
         g_variant_new("(ss)", kAccessibleInterface, "Name"), [this, &probe](GVariant* reply) {
           probe.info.name = string_in(reply);
           if (is_password_manager(probe.info.name)) {
             probe.info.policy_denied = true;
             return;
           }
           list_windows(probe);
         });
  }

 private:
  Channel app(const AppProbe& probe) const { return {bus_.connection, probe.info.bus_name, bus_.router}; }

  template <typename OnReply>
  void call(const Channel& channel, AppProbe& probe, const char* path, const char* interface,
            const char* method, GVariant* args, OnReply on_reply) {
    scope_.call(channel, path, interface, method, args,
                [this, &probe, on_reply](GVariant* reply, const GError* error) {
                  if (is_cancelled(error)) ++probe.unanswered;
                  // Only the bus itself says an app has left; a vanished window is not that.
                  if (error != nullptr &&
                      (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
                       g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN))) {
                    probe.gone = true;
                  }
                  if (is_no_reply(error)) ask_owner(probe);
                  if (reply != nullptr) on_reply(reply);
                });
  }

  // NoReply comes both from an app that exited with the call in flight and from the bus's
  // own reply timeout on a hung one; only the bus's record of the name tells them apart.
  void ask_owner(AppProbe& probe) {
    if (probe.owner_asked) return;
    probe.owner_asked = true;
    scope_.call({bus_.connection, "org.freedesktop.DBus", bus_.router}, "/org/freedesktop/DBus",
                "org.freedesktop.DBus", "NameHasOwner",
                g_variant_new("(s)", probe.info.bus_name.c_str()),
                [&probe](GVariant* reply, const GError*) {
                  if (reply != nullptr && g_variant_is_of_type(reply, G_VARIANT_TYPE("(b)")) &&
                      !g_variant_get_boolean(child_of(reply, 0).get())) {
                    probe.gone = true;
                  }
                });
  }

  void list_windows(AppProbe& probe) {
    call(app(probe), probe, kRootPath, kAccessibleInterface, "GetChildren", nullptr,
         [this, &probe](GVariant* reply) {
           if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(a(so))"))) return;
           auto paths = object_paths_of(child_of(reply, 0).get());
           if (paths.size() > kMaxWindowsPerApp) {
             probe.info.windows_not_listed = paths.size() - kMaxWindowsPerApp;
             paths.resize(kMaxWindowsPerApp);
           }
           probe.info.windows.reserve(paths.size());
           for (const std::string& path : paths) {
             WindowInfo& window = probe.info.windows.emplace_back();
             window.path = path;
             window.bus_name = probe.info.bus_name;
             window.id = window_id(window.bus_name, window.path);
           }
           // The vector is complete now, so element addresses stay put for the handlers.
           for (WindowInfo& window : probe.info.windows) read_window(probe, window);
         });
  }

  void read_window(AppProbe& probe, WindowInfo& window) {
    const Channel channel = app(probe);
    const char* path = window.path.c_str();
    call(channel, probe, path, kPropertiesInterface, "Get",
         g_variant_new("(ss)", kAccessibleInterface, "Name"),
         [&window](GVariant* reply) { window.title = string_in(reply); });
    call(channel, probe, path, kAccessibleInterface, "GetRole", nullptr,
         [&window](GVariant* reply) {
           if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(u)"))) {
             window.role = role_name(g_variant_get_uint32(child_of(reply, 0).get()));
           }
         });
    call(channel, probe, path, kAccessibleInterface, "GetState", nullptr,
         [&window](GVariant* reply) {
           if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(au)"))) {
             window.states = states_of(child_of(reply, 0).get());
           }
         });
    call(channel, probe, path, "org.a11y.atspi.Component", "GetExtents",
         g_variant_new("(u)", ATSPI_COORD_TYPE_SCREEN), [&window](GVariant* reply) {
           if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("((iiii))"))) return;
           VariantPtr box = child_of(reply, 0);
           Bounds b{g_variant_get_int32(child_of(box.get(), 0).get()),
                    g_variant_get_int32(child_of(box.get(), 1).get()),
                    g_variant_get_int32(child_of(box.get(), 2).get()),
                    g_variant_get_int32(child_of(box.get(), 3).get())};
           if (b.x != G_MININT32 && b.y != G_MININT32) window.bounds = b;
         });
  }

  CallScope& scope_;
  Channel bus_;
};

}  // namespace

bool is_listed_window(StateSet states) {
  return has_state(states, ATSPI_STATE_VISIBLE) || has_state(states, ATSPI_STATE_SHOWING);
}

bool app_name_matches(std::string_view app_name, std::string_view wanted) {
  return !wanted.empty() && app_name.size() == wanted.size() &&
         std::equal(app_name.begin(), app_name.end(), wanted.begin(), [](char a, char b) {
           return g_ascii_tolower(a) == g_ascii_tolower(b);
         });
}

Result<std::vector<AppInfo>> list_apps(Bus& bus, Deadline deadline, const ListOptions& options) {
  std::vector<std::string> bus_names;
  Channel bus_channel;
  {
    CallScope scope(deadline);
    auto channel = bus.bus_channel(scope);
    if (!channel) return std::move(channel).take_error();
    bus_channel = *channel;
    bool answered = false;
    std::string failure = "no answer before the deadline";
    scope.call({bus_channel.connection, kRegistryName, bus_channel.router}, kRootPath, kAccessibleInterface,
               "GetChildren", nullptr, [&](GVariant* reply, const GError* error) {
                 if (error != nullptr) failure = error->message;
                 if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(a(so))"))) {
                   return;
                 }
                 answered = true;
                 VariantPtr refs = child_of(reply, 0);
                 const gsize count = g_variant_n_children(refs.get());
                 for (gsize i = 0; i < count; ++i) {
                   VariantPtr ref = child_of(refs.get(), i);
                   bus_names.emplace_back(
                       g_variant_get_string(child_of(ref.get(), 0).get(), nullptr));
                 }
               });
    scope.wait();
    if (!answered) {
      return make_error(ErrorCode::kBusUnavailable, "the accessibility registry did not answer",
                        {{"cause", failure}},
                        "check that at-spi2-registryd runs on the accessibility bus");
    }
  }
  if (!options.only_bus_names) bus.keep_only(bus_names);
  std::erase_if(bus_names, [&](const std::string& name) {
    if (options.only_bus_names) {
      const auto& only = *options.only_bus_names;
      if (std::find(only.begin(), only.end(), name) == only.end()) return true;
    }
    if (options.name_hint) {
      const std::string known = bus.known_app_name(name);
      if (!known.empty() && !app_name_matches(known, *options.name_hint)) return true;
    }
    return false;
  });

  std::vector<AppProbe> probes(bus_names.size());
  {
    CallScope scope(std::min(deadline, std::chrono::steady_clock::now() + options.per_app_budget));
    AppLister lister(scope, bus_channel);
    for (std::size_t i = 0; i < bus_names.size(); ++i) {
      probes[i].info.bus_name = bus_names[i];
      lister.start(probes[i]);
    }
    scope.wait();
  }

  std::vector<AppInfo> apps;
  apps.reserve(probes.size());
  for (AppProbe& probe : probes) {
    if (probe.gone) continue;  // left the bus while we asked
    AppInfo& info = probe.info;
    info.responsive = probe.unanswered == 0;
    if (!info.name.empty()) {
      bus.remember_app_name(info.bus_name, info.name);
    } else {
      info.name = bus.known_app_name(info.bus_name);
      info.policy_denied = is_password_manager(info.name);
    }
    if (info.policy_denied) info.windows.clear();
    std::erase_if(info.windows, [](const WindowInfo& w) { return !is_listed_window(w.states); });
    for (WindowInfo& window : info.windows) {
      window.app_name = info.name;
      window.pid = info.pid;
    }
    if (info.responsive) {
      bus.remember_windows(info.bus_name, info.windows, info.windows_not_listed);
    } else if (!info.policy_denied) {
      // A window whose state did not arrive was dropped above: list what the last complete
      // listing saw instead, marked as not answering, so no window silently disappears —
      // nor the count of those it could not list.
      if (auto known = bus.known_windows(info.bus_name); !known.empty()) info.windows = std::move(known);
      info.windows_not_listed = std::max(info.windows_not_listed, bus.known_windows_not_listed(info.bus_name));
      if (!info.pid && !info.windows.empty()) info.pid = info.windows.front().pid;
      for (WindowInfo& window : info.windows) window.responsive = false;
    }
    apps.push_back(std::move(info));
  }
  return apps;
}

}  // namespace companyos::a11y
