#include "desktop/target_window.h"

#include "a11y/observer.h"
#include "desktop/window_resolver.h"
#include "x11/display_server.h"

namespace companyos::desktop {

Status require_x11_session(std::string_view what) { return require_x11(x11::detect_display_server(), what); }

Status require_x11(x11::DisplayServer server, std::string_view what) {
  if (server == x11::DisplayServer::kX11) return ok_status();
  std::string message = std::string(what) + " needs an X11 session; this one is " + std::string(x11::to_string(server));
  nlohmann::json details = {{"display_server", x11::to_string(server)}};
  std::string suggestion;
  if (server == x11::DisplayServer::kWayland) {
    if (what == "focus_window" || what == "focus-window") {
      message += ": no Wayland protocol lets an outside client focus a window";
      details["reason"] = "no_wayland_protocol";
      suggestion = "bring the window to the front yourself, or use an X11 session";
    } else {
      message += ": on Wayland it would go through the compositor's remote-desktop session, which is not built";
      details["reason"] = "not_built";
      suggestion = "use an X11 session for it (docs/wayland.md says what works on Wayland)";
    }
  }
  return make_error(ErrorCode::kPlatformNotSupported, std::move(message), std::move(details), std::move(suggestion));
}

Result<TargetWindow> find_target_window(a11y::Observer& observer, Deadline deadline,
                                        const a11y::WindowQuery& query, x11::Connection& connection) {
  auto resolved = resolve_window(observer, connection, deadline, query);
  if (!resolved) return std::move(resolved).take_error();
  // Fallback::kNone: the window is always the accessible one.
  return TargetWindow{std::move(*resolved->accessible), resolved->client.id};
}

Result<nlohmann::json> act_on_target_window(std::string_view what, a11y::Observer& observer,
                                            Deadline deadline, const a11y::WindowQuery& query,
                                            const WindowAct& act) {
  if (auto st = require_x11_session(what); !st) return std::move(st).take_error();
  auto connection = x11::Connection::open();
  if (!connection) return std::move(connection).take_error();
  auto target = find_target_window(observer, deadline, query, *connection);
  if (!target) return std::move(target).take_error();
  return act(*connection, *target);
}

}  // namespace companyos::desktop
