// Which X11 window a request is about: the one answer every method and automation step
// uses, so focus-window and a focus step never pick different windows.
//
// An accessible window pairs with its X11 client window, or with none when the pairing
// would be a guess: same pid, then same title, then the same size (GTK4 reports
// window-relative positions, so size is compared before position). A request names an app
// and perhaps one of its windows; the accessible window is chosen as for a snapshot, then
// paired. An app-level request (an automation's focus or press step) may also name an app
// that is not on the accessibility bus: then its one X11 window by WM_CLASS class or
// instance is the answer, as launch checks a new window.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "a11y/model.h"
#include "a11y/selection.h"
#include "companyos/result.h"
#include "core/deadline.h"
#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::a11y {
class Observer;
}

namespace companyos::desktop {

// The client of `clients` that pairs with `window`: the same pid, then the same title —
// or, when no client has that title (the window was retitled since it was read), the
// same size, then position — then, among same-titled ones, the same size, then position.
// nullptr when none or several do.
const x11::WindowInfo* match_x11_window(const a11y::WindowInfo& window,
                                        std::span<const x11::WindowInfo> clients);

struct ResolvedWindow {
  std::optional<a11y::WindowInfo> accessible;  // none: found by WM_CLASS alone
  x11::WindowInfo client;
};

enum class Fallback {
  kNone,     // the window must be accessible (its reply names the accessible window)
  kWmClass,  // an app not on the bus (or no bus) is found by WM_CLASS, if no window is named
};

// The decision, from what was read. POLICY_DENIED for a password manager; otherwise the
// errors of a11y::select_apps and select_window (APP_NOT_FOUND, APP_UNRESPONSIVE,
// WINDOW_NOT_FOUND, AMBIGUOUS_TARGET), or the bus's error; WINDOW_NOT_FOUND when no single
// client pairs with the window; with kWmClass, AMBIGUOUS_TARGET (kind "several_windows")
// when several clients have the app's WM_CLASS.
Result<ResolvedWindow> choose_window(const Result<std::vector<a11y::AppInfo>>& apps,
                                     std::span<const x11::WindowInfo> clients,
                                     const a11y::WindowQuery& query, Fallback fallback);

// choose_window with the apps and clients read now.
Result<ResolvedWindow> resolve_window(a11y::Observer& observer, x11::Connection& connection,
                                      Deadline deadline, const a11y::WindowQuery& query,
                                      Fallback fallback = Fallback::kNone);

// Pids of the accessible apps named `app` (empty when none, or when the bus does not
// answer). POLICY_DENIED for a password manager.
Result<std::set<long>> accessible_app_pids(a11y::Observer& observer, const std::string& app,
                                           Deadline deadline);

// Whether a client window is one of the app's: its WM_CLASS names the app, or its pid is
// one of the app's accessible pids. Every window choose_window returns for the app is.
bool belongs_to_app(const x11::WindowInfo& window, std::string_view app, const std::set<long>& pids);

}  // namespace companyos::desktop
