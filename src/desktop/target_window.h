// The one window a window-level request is about (by app plus window id, title, or the
// app's only window), paired with its X11 window. Shared by screenshot and window actions.
#pragma once

#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "a11y/model.h"
#include "a11y/selection.h"
#include "companyos/result.h"
#include "core/deadline.h"
#include "x11/connection.h"
#include "x11/display_server.h"
#include "x11/windows.h"

namespace companyos::a11y {
class Observer;
}

namespace companyos::desktop {

struct TargetWindow {
  a11y::WindowInfo window;
  x11::WindowId xid = 0;
};

// PLATFORM_NOT_SUPPORTED unless this session is X11 (Wayland: no faked portal session). On
// Wayland details.reason says why: "no_wayland_protocol" for focusing a window (WHAT is
// focus_window or focus-window: no protocol lets an outside client do it), "not_built" for
// the rest (pictures and input go through the compositor's remote-desktop session, which
// companyOS does not use yet; docs/wayland.md).
Status require_x11_session(std::string_view what);
// The same refusal for a display server already known.
Status require_x11(x11::DisplayServer server, std::string_view what);

// APP_NOT_FOUND / WINDOW_NOT_FOUND / AMBIGUOUS_TARGET / POLICY_DENIED as for a snapshot;
// WINDOW_NOT_FOUND also when no single X11 window pairs with it.
Result<TargetWindow> find_target_window(a11y::Observer& observer, Deadline deadline,
                                        const a11y::WindowQuery& query, x11::Connection& connection);

// What a window-level request does once it has its window: X11 only (require_x11_session),
// a fresh connection, find_target_window, then act with both; every refusal before act.
using WindowAct = std::function<Result<nlohmann::json>(x11::Connection&, const TargetWindow&)>;
Result<nlohmann::json> act_on_target_window(std::string_view what, a11y::Observer& observer,
                                            Deadline deadline, const a11y::WindowQuery& query,
                                            const WindowAct& act);


}  // namespace companyos::desktop
