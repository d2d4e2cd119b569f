#include "desktop/notification_server.h"

#include <algorithm>
#include <memory>

#include "core/glib_handles.h"

namespace companyos::desktop {
namespace {

using Connection = GObjectPtr<GDBusConnection>;
using Variant = VariantPtr;

constexpr const char* kName = "org.freedesktop.Notifications";
constexpr const char* kPath = "/org/freedesktop/Notifications";

// One method of the server, no arguments; the reply, or nullptr with `error` set.
Variant call(GDBusConnection* bus, const char* method, const char* reply_type, std::chrono::milliseconds timeout,
             std::optional<std::string>& error) {
  GError* raw = nullptr;
  Variant reply(g_dbus_connection_call_sync(bus, kName, kPath, kName, method, nullptr, G_VARIANT_TYPE(reply_type),
                                            G_DBUS_CALL_FLAGS_NO_AUTO_START, static_cast<gint>(timeout.count()),
                                            nullptr, &raw));
  const ErrorPtr owned(raw);
  if (!reply) error = owned ? owned->message : "no reply";
  return reply;
}

}  // namespace

bool NotificationServer::has(std::string_view capability) const {
  return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
}

NotificationServer probe_notification_server(std::chrono::milliseconds timeout) {
  NotificationServer server;
  GError* raw = nullptr;
  const Connection bus(g_bus_get_sync(G_BUS_TYPE_SESSION, nullptr, &raw));
  const ErrorPtr bus_error(raw);
  if (!bus) {
    server.error = std::string("no session bus: ") + (bus_error ? bus_error->message : "unknown");
    return server;
  }
  const Variant information = call(bus.get(), "GetServerInformation", "(ssss)", timeout, server.error);
  if (!information) return server;
  const gchar* name = nullptr;
  const gchar* vendor = nullptr;
  const gchar* version = nullptr;
  const gchar* spec = nullptr;
  g_variant_get(information.get(), "(&s&s&s&s)", &name, &vendor, &version, &spec);
  server.answers = true;
  server.name = std::string(name) + " " + version;
  if (const Variant capabilities = call(bus.get(), "GetCapabilities", "(as)", timeout, server.error)) {
    const Variant list(g_variant_get_child_value(capabilities.get(), 0));
    gsize count = 0;
    // The array is the caller's to free; its strings stay the variant's.
    const std::unique_ptr<const gchar*, GFree> strings(g_variant_get_strv(list.get(), &count));
    for (gsize i = 0; i < count; ++i) server.capabilities.emplace_back(strings.get()[i]);
  }
  return server;
}

}  // namespace companyos::desktop
