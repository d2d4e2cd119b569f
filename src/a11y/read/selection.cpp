#include "a11y/selection.h"

#include "a11y/apps.h"
#include "a11y/policy.h"
#include "companyos/reply_fields.h"

namespace companyos::a11y {

nlohmann::json window_details(const WindowInfo& window) {
  namespace field = reply_fields::window;
  return {{field::kId, window.id},
          {field::kTitle, window.title},
          {field::kApp, window.app_name},
          {field::kPid, window.pid ? nlohmann::json(*window.pid) : nlohmann::json(nullptr)}};
}

nlohmann::json window_candidates(const std::vector<WindowInfo>& windows) {
  auto list = nlohmann::json::array();
  for (const WindowInfo& window : windows) list.push_back(window_details(window));
  return list;
}

Result<std::vector<const AppInfo*>> select_apps(const std::vector<AppInfo>& apps,
                                                const std::string& app_name) {
  if (auto allowed = check_observation_allowed(app_name); !allowed) {
    return std::move(allowed).take_error();
  }
  std::vector<const AppInfo*> selected;
  auto names = nlohmann::json::array();
  for (const AppInfo& app : apps) {
    if (!app.name.empty()) names.push_back(app.name);
    if (!app_name_matches(app.name, app_name)) continue;
    if (app.policy_denied) return check_observation_allowed(app.name).take_error();
    selected.push_back(&app);
  }
  if (selected.empty()) {
    return make_error(ErrorCode::kAppNotFound, "no app named " + app_name + " is on the desktop",
                      {{"app", app_name}, {"apps", names}},
                      "list apps to see the names AT-SPI reports");
  }
  return selected;
}

std::optional<std::string> default_window_of(const std::vector<WindowInfo>& windows) {
  for (const WindowInfo& window : windows) {
    if (window.active()) return window.id;
  }
  std::optional<std::string> titled;
  for (const WindowInfo& window : windows) {
    if (window.title.empty()) continue;
    if (titled) return std::nullopt;
    titled = window.id;
  }
  return titled;
}

Result<WindowInfo> select_window(const std::vector<const AppInfo*>& apps,
                                 const WindowQuery& query) {
  std::vector<WindowInfo> all;
  std::vector<WindowInfo> matches;
  const AppInfo* unresponsive = nullptr;
  for (const AppInfo* app : apps) {
    if (!app->responsive) unresponsive = app;
    for (const WindowInfo& window : app->windows) {
      all.push_back(window);
      const bool match = query.window_id ? window.id == *query.window_id
                         : query.title   ? window.title == *query.title
                                         : true;
      if (match) matches.push_back(window);
    }
  }
  const bool decided_by_id = query.window_id && matches.size() == 1;
  if (unresponsive != nullptr && !decided_by_id) {
    return make_error(ErrorCode::kAppUnresponsive,
                      "app " + unresponsive->name + " did not answer, so its windows are unknown",
                      {{"app", unresponsive->name}, {"bus_name", unresponsive->bus_name}},
                      "the app may be busy or stopped; try again later", Retry::kSafe);
  }
  nlohmann::json details = {{"app", query.app}, {"candidates", window_candidates(all)}};
  if (query.window_id) details["window"] = *query.window_id;
  if (query.title) details["title"] = *query.title;
  if (matches.empty()) {
    return make_error(ErrorCode::kWindowNotFound,
                      all.empty() ? "the app has no windows" : "no window of the app matches",
                      std::move(details), "pick a window id from the candidates");
  }
  if (matches.size() > 1 && !query.window_id && !query.title) {
    if (const auto chosen = default_window_of(matches)) {
      for (const WindowInfo& window : matches) {
        if (window.id == *chosen) return window;
      }
    }
  }
  if (matches.size() > 1) {
    details["candidates"] = window_candidates(matches);
    return make_error(ErrorCode::kAmbiguousTarget,
                      std::to_string(matches.size()) + " windows match; name exactly one",
                      std::move(details), "add --window ID with one of the candidates' ids");
  }
  return matches.front();
}

}  // namespace companyos::a11y
