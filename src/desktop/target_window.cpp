#include "desktop/target_window.h"

#include "a11y/observer.h"
#include "desktop/window_resolver.h"
#include "x11/display_server.h"

namespace companyos::desktop {

Status require_x11_session(std::string_view what) { return require_x11(x11::detect_display_server(), what); }

Status require_x11(x11::DisplayServer server, std::string_view what) {
  if (server == x11::DisplayServer::kX11) return ok_status();
  return make_error(ErrorCode::kPlatformNotSupported,
                    std::string(what) + " needs an X11 session; this one is " +
                        std::string(x11::to_string(server)),
                    {{"display_server", x11::to_string(server)}});
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
