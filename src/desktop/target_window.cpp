#include "desktop/target_window.h"

#include "a11y/observer.h"
#include "a11y/render.h"
#include "desktop/window_match.h"
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
  auto apps = observer.apps(deadline);
  if (!apps) return std::move(apps).take_error();
  auto selected = a11y::select_apps(*apps, query.app);
  if (!selected) return std::move(selected).take_error();
  auto window = a11y::select_window(*selected, query);
  if (!window) return std::move(window).take_error();
  auto clients = x11::list_windows(connection);
  if (!clients) return std::move(clients).take_error();
  auto xid = match_x11_window(*window, *clients);
  if (!xid) {
    return make_error(ErrorCode::kWindowNotFound,
                      "cannot pair window \"" + window->title + "\" with exactly one X11 window",
                      {{"window", a11y::window_to_json(*window)}});
  }
  return TargetWindow{std::move(*window), *xid};
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
