#include "desktop/window_resolver.h"

#include <nlohmann/json.hpp>

#include "a11y/observer.h"
#include "a11y/policy.h"
#include "a11y/selection.h"

namespace companyos::desktop {
namespace {

template <typename Keep>
std::vector<const x11::WindowInfo*> narrow(const std::vector<const x11::WindowInfo*>& from, Keep keep) {
  std::vector<const x11::WindowInfo*> out;
  for (const auto* client : from) {
    if (keep(*client)) out.push_back(client);
  }
  return out;
}

Result<ResolvedWindow> by_wm_class(std::span<const x11::WindowInfo> clients, const std::string& app,
                                   Error not_accessible) {
  std::vector<const x11::WindowInfo*> mine;
  for (const auto& client : clients) {
    if (x11::has_class(client, app)) mine.push_back(&client);
  }
  if (mine.empty()) return not_accessible;
  if (mine.size() == 1) return ResolvedWindow{std::nullopt, *mine.front()};
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto* client : mine) {
    candidates.push_back({{"title", client->title}, {"wm_class", client->wm_class}, {"id", client->id}});
  }
  return make_error(ErrorCode::kAmbiguousTarget,
                    std::to_string(mine.size()) + " windows of app " + app + " are open; a step acts on one",
                    {{"app", app}, {"kind", "several_windows"}, {"candidates", candidates}},
                    "close the other windows");
}

}  // namespace

const x11::WindowInfo* match_x11_window(const a11y::WindowInfo& window,
                                        std::span<const x11::WindowInfo> clients) {
  if (!window.pid) return nullptr;
  std::vector<const x11::WindowInfo*> candidates;
  for (const auto& client : clients) {
    if (client.pid && *client.pid == *window.pid) candidates.push_back(&client);
  }
  auto same_title = narrow(candidates, [&](const x11::WindowInfo& c) { return c.title == window.title; });
  if (same_title.empty() && window.bounds) {
    // A page or document can retitle its window at any time, and the accessible title
    // may be an earlier one: then the geometry alone must single the window out.
    const auto& b = *window.bounds;
    same_title = narrow(candidates, [&](const x11::WindowInfo& c) {
      return c.bounds.width == b.width && c.bounds.height == b.height;
    });
    if (same_title.size() > 1) {
      same_title = narrow(same_title, [&](const x11::WindowInfo& c) { return c.bounds.x == b.x && c.bounds.y == b.y; });
    }
  }
  candidates = std::move(same_title);
  if (candidates.size() > 1 && window.bounds) {
    const auto& b = *window.bounds;
    auto same_size = narrow(candidates, [&](const x11::WindowInfo& c) {
      return c.bounds.width == b.width && c.bounds.height == b.height;
    });
    if (same_size.size() > 1) {
      same_size = narrow(same_size, [&](const x11::WindowInfo& c) {
        return c.bounds.x == b.x && c.bounds.y == b.y;
      });
    }
    candidates = std::move(same_size);
  }
  if (candidates.size() != 1) return nullptr;
  return candidates.front();
}

Result<ResolvedWindow> choose_window(const Result<std::vector<a11y::AppInfo>>& apps,
                                     std::span<const x11::WindowInfo> clients,
                                     const a11y::WindowQuery& query, Fallback fallback) {
  if (auto allowed = a11y::check_observation_allowed(query.app); !allowed) return std::move(allowed).take_error();
  // Window ids and titles are the accessible window's: a named window is never guessed by class.
  const bool may_use_class = fallback == Fallback::kWmClass && !query.window_id && !query.title;
  if (!apps) {
    if (may_use_class) return by_wm_class(clients, query.app, apps.error());
    return apps.error();
  }
  auto selected = a11y::select_apps(*apps, query.app);
  if (!selected) {
    if (may_use_class && selected.error().code == ErrorCode::kAppNotFound) {
      return by_wm_class(clients, query.app, std::move(selected).take_error());
    }
    return std::move(selected).take_error();
  }
  auto window = a11y::select_window(*selected, query);
  if (!window) return std::move(window).take_error();
  const x11::WindowInfo* client = match_x11_window(*window, clients);
  if (client == nullptr) {
    return make_error(ErrorCode::kWindowNotFound,
                      "cannot pair window \"" + window->title + "\" with exactly one X11 window",
                      {{"window", a11y::window_details(*window)}});
  }
  return ResolvedWindow{std::move(*window), *client};
}

Result<ResolvedWindow> resolve_window(a11y::Observer& observer, x11::Connection& connection,
                                      Deadline deadline, const a11y::WindowQuery& query, Fallback fallback) {
  auto clients = x11::list_windows(connection);
  if (!clients) return std::move(clients).take_error();
  return choose_window(observer.apps(deadline), *clients, query, fallback);
}

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
  if (x11::has_class(window, app)) return true;
  return window.pid && pids.contains(*window.pid);
}

}  // namespace companyos::desktop
