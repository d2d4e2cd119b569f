#include "desktop/compositor_probe.h"

#include <algorithm>
#include <memory>

#include "core/glib_handles.h"

namespace companyos::desktop {
namespace {

using Connection = GObjectPtr<GDBusConnection>;

// A name on the session bus and the compositor that owns it.
struct CompositorName {
  std::string_view bus_name;
  std::string_view compositor;
};
constexpr CompositorName kCompositorNames[] = {
    {"org.gnome.Mutter.DisplayConfig", "mutter"},
    {"org.kde.KWin", "kwin"},
};

}  // namespace

CompositorFacts compositor_from_bus_names(const std::vector<std::string>& names) {
  CompositorFacts facts;
  const auto owned = [&names](std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (const CompositorName& known : kCompositorNames) {
    if (owned(known.bus_name)) {
      facts.compositor = known.compositor;
      break;
    }
  }
  facts.mutter_remote_desktop = owned(kMutterRemoteDesktop);
  facts.mutter_screen_cast = owned(kMutterScreenCast);
  return facts;
}

CompositorFacts probe_compositor(std::chrono::milliseconds timeout) {
  GError* raw = nullptr;
  const Connection bus(g_bus_get_sync(G_BUS_TYPE_SESSION, nullptr, &raw));
  const ErrorPtr bus_error(raw);
  if (!bus) {
    CompositorFacts facts;
    facts.error = std::string("no session bus: ") + (bus_error ? bus_error->message : "unknown");
    return facts;
  }
  const VariantPtr reply(g_dbus_connection_call_sync(
      bus.get(), "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", nullptr,
      G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE, static_cast<gint>(timeout.count()), nullptr, &raw));
  const ErrorPtr call_error(raw);
  if (!reply) {
    CompositorFacts facts;
    facts.error = std::string("the session bus did not list its names: ") +
                  (call_error ? call_error->message : "no reply");
    return facts;
  }
  const VariantPtr list(g_variant_get_child_value(reply.get(), 0));
  gsize count = 0;
  // The array is the caller's to free; its strings stay the variant's.
  const std::unique_ptr<const gchar*, GFree> strings(g_variant_get_strv(list.get(), &count));
  std::vector<std::string> names;
  names.reserve(count);
  for (gsize i = 0; i < count; ++i) names.emplace_back(strings.get()[i]);
  return compositor_from_bus_names(names);
}

}  // namespace companyos::desktop
