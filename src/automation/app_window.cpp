#include "automation/app_window.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "a11y/policy.h"
#include "a11y/selection.h"
#include "launch/in_front.h"

namespace companyos::automation {

Result<std::set<long>> accessible_app_pids(a11y::Observer& observer, const std::string& app,
                                           Deadline deadline) {
  if (auto allowed = a11y::check_observation_allowed(app); !allowed) return std::move(allowed).take_error();
  std::set<long> pids;
  auto apps = observer.apps(deadline);
  if (!apps) return pids;  // X11 alone still names the app by WM_CLASS
  auto named = a11y::select_apps(*apps, app);
  if (!named) return pids;
  for (const a11y::AppInfo* info : *named) {
    if (info->pid) pids.insert(*info->pid);
  }
  return pids;
}

bool belongs_to_app(const x11::WindowInfo& window, std::string_view app, const std::set<long>& pids) {
  if (launch::names_app(window, {std::string(app)})) return true;
  return window.pid && pids.contains(*window.pid);
}

Result<x11::WindowInfo> find_app_window(a11y::Observer& observer, const std::string& app,
                                        x11::Connection& connection, Deadline deadline) {
  auto pids = accessible_app_pids(observer, app, deadline);
  if (!pids) return std::move(pids).take_error();
  auto windows = x11::list_windows(connection);
  if (!windows) return std::move(windows).take_error();
  std::vector<x11::WindowInfo> mine;
  for (const auto& window : *windows) {
    if (belongs_to_app(window, app, *pids)) mine.push_back(window);
  }
  if (mine.size() == 1) return mine.front();
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& window : mine) {
    candidates.push_back({{"title", window.title}, {"wm_class", window.wm_class}, {"id", window.id}});
  }
  if (mine.empty()) {
    return make_error(ErrorCode::kWindowNotFound, "no window of app " + app + " is open",
                      {{"app", app}}, "open the app first, or check the app name");
  }
  return make_error(ErrorCode::kAmbiguousTarget,
                    std::to_string(mine.size()) + " windows of app " + app + " are open; a step acts on one",
                    {{"app", app}, {"kind", "several_windows"}, {"candidates", candidates}},
                    "close the other windows, or name the window in an element step");
}

}  // namespace companyos::automation
