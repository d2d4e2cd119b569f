// Picks exactly one window for an observation: by app name plus window id, title, or the
// app's only window. Zero matches → WINDOW_NOT_FOUND, several → AMBIGUOUS_TARGET, each
// with the candidates; password managers → POLICY_DENIED. Pure: works on a listed snapshot
// of the desktop.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "a11y/model.h"
#include "companyos/result.h"

namespace companyos::a11y {

struct WindowQuery {
  std::string app;                        // matched case-insensitively
  std::optional<std::string> window_id;   // exact
  std::optional<std::string> title;       // exact, case-sensitive
};

// Apps named query.app. POLICY_DENIED for a password manager, APP_NOT_FOUND when none
// (details list the apps there are).
Result<std::vector<const AppInfo*>> select_apps(const std::vector<AppInfo>& apps,
                                                const std::string& app_name);
// One window of the selected apps. Apps with responsive=false could hide a match:
// unless the window id picks a window of an app that answered, the result is
// APP_UNRESPONSIVE rather than a guess. A query naming no window or title means the app's
// default window (default_window_of) when it has several; AMBIGUOUS_TARGET with the
// candidates when it has none.
Result<WindowInfo> select_window(const std::vector<const AppInfo*>& apps,
                                 const WindowQuery& query);

// The window an app alone means among its windows: the active one, else the only one with
// a title (helper windows without a title never count); nullopt when neither picks one.
std::optional<std::string> default_window_of(const std::vector<WindowInfo>& windows);

// A window as errors name it in their details (the only JSON a11y writes is its errors'):
// {id, title, app, pid}, the fields of a listed window these share. Replies write whole
// windows (the daemon's wire).
nlohmann::json window_details(const WindowInfo& window);
// select_window's candidates, each as window_details.
nlohmann::json window_candidates(const std::vector<WindowInfo>& windows);

}  // namespace companyos::a11y
