#include "daemon/methods/settled_state.h"

#include <algorithm>

#include "a11y/render.h"
#include "a11y/selection.h"
#include "companyos/methods.h"
#include "companyos/reply_fields.h"
#include "a11y/view.h"
#include "daemon/wire/a11y_replies.h"

namespace companyos::daemon::methods {
namespace {

// A spreadsheet's rows in the agent view: a screenful of short cells fits; a sheet full of
// text is cut and counted. They take what the rest of the view leaves of 5,200 characters,
// which with the state's header, an action's first lines and the row of the cell just set
// keeps a Calc window's answer within the agent view's 6,000.
constexpr std::size_t kAgentGridCharacters = 1500;
constexpr std::size_t kAgentOutlineCharacters = 5200;

nlohmann::json settled_to_json(const a11y::Settled& settled) {
  return {{"waited_ms", settled.waited.count()},
          {"events", settled.events},
          {"still_changing", settled.still_changing},
          {"watched", settled.watched}};
}

// The agent view of one window, as `snapshot -i --compact --format outline` gives it.
nlohmann::json agent_view(const a11y::Snapshot& snapshot) {
  a11y::ViewOptions view = a11y::filtered_view(true, true, std::nullopt);
  a11y::OutlineOptions outline;
  fold_as_agent_view(view, outline, snapshot);
  const auto tree = a11y::make_view(snapshot.nodes, view);
  auto json = wire::snapshot_to_json(snapshot, tree, false);
  json[reply_fields::snapshot::kOutline] = a11y::render_outline(snapshot, tree, outline);
  return json;
}

}  // namespace

void fold_as_agent_view(a11y::ViewOptions& view, a11y::OutlineOptions& outline, const a11y::Snapshot& snapshot) {
  view.fold_not_showing = snapshot.showing_means_on_screen;
  view.fold_nameless_groups = true;
  view.ignored_actions = snapshot.actions_on_every_node;
  outline.hidden_actions = snapshot.actions_on_every_node;
  view.fold_repeated_menu_bars = true;
  outline.content_values_only = true;
  // What no tool of the agent's acts on or needs to tell elements apart: focus order,
  // tooltips, orientation, window chrome, text selection and completion.
  outline.hidden_states = {"focusable",       "has-tooltip",      "horizontal",          "vertical",
                           "resizable",       "manages-descendants", "selectable-text", "supports-autocompletion"};
  outline.disabled_instead_of_enabled = snapshot.enabled_state_marked;
  outline.button_press_implied = true;
  outline.alike_unnamed_buttons_in_one_line = true;
  outline.tool_bar_buttons_in_rows = true;
  outline.grid_characters = kAgentGridCharacters;
  outline.outline_characters = kAgentOutlineCharacters;
  // A cell is reached by its table's number and address, so its own number is left out.
  outline.grid_cell_numbers = false;
}

nlohmann::json with_settle_budget(nlohmann::json params) {
  if (!params.value("settle", false)) return params;
  const std::int64_t given = params.value("timeout_ms", std::int64_t{companyos::methods::kDefaultObservationTimeout.count()});
  params["timeout_ms"] = std::min<std::int64_t>(given + kSettleBudget.count(), companyos::methods::kMaxObservationTimeout.count());
  return params;
}

std::vector<std::string> bus_names_of(a11y::Observer& observer, const std::string& app, Deadline deadline) {
  auto names = observer.bus().bus_names_known_for(app);
  if (names.empty() && observer.windows(app, deadline)) names = observer.bus().bus_names_known_for(app);
  return names;
}

std::vector<std::string> known_window_ids(a11y::Observer& observer, const std::vector<std::string>& bus_names) {
  std::vector<std::string> ids;
  for (const std::string& bus_name : bus_names) {
    for (const a11y::WindowInfo& window : observer.bus().known_windows(bus_name)) ids.push_back(window.id);
  }
  return ids;
}

std::optional<std::string> window_opened_in_front(const std::vector<a11y::WindowInfo>& now,
                                                  const std::vector<std::string>& before,
                                                  const std::optional<std::string>& acted_on) {
  // Without a listing from before, a new window cannot be told from an old one.
  if (before.empty()) return std::nullopt;
  for (const a11y::WindowInfo& window : now) {
    if (!window.active() || (acted_on && window.id == *acted_on)) continue;
    if (std::find(before.begin(), before.end(), window.id) == before.end()) return window.id;
  }
  return std::nullopt;
}

nlohmann::json settled_state(a11y::Observer& observer, a11y::SettleWatch& watch, const a11y::SettleRule& rule,
                             const std::string& app, const std::optional<std::string>& window_id,
                             const std::vector<std::string>& windows_before, Deadline deadline) {
  const a11y::Settled settled = watch.settle(rule, deadline);
  nlohmann::json json = {{"settled", settled_to_json(settled)}};
  // The app's windows, listed at most once: up front only when there is a listing from
  // before to tell a new window by, else only when the window acted on is gone.
  std::optional<std::vector<a11y::WindowInfo>> listed;
  const auto list_once = [&] {
    if (listed) return;
    if (auto windows = observer.windows(app, deadline)) listed = std::move(windows).value();
  };
  if (!windows_before.empty()) list_once();
  if (listed) {
    if (const auto opened = window_opened_in_front(*listed, windows_before, window_id)) {
      auto read = observer.snapshot(a11y::WindowQuery{.app = app, .window_id = opened, .title = {}}, deadline);
      if (read) {
        json.update(agent_view(**read));
        if (window_id) json["opened_over"] = *window_id;
        return json;
      }
    }
  }
  auto read = observer.snapshot(a11y::WindowQuery{.app = app, .window_id = window_id, .title = {}}, deadline);
  if (!read && window_id) {
    list_once();
    if (auto front = listed ? a11y::default_window_of(*listed) : std::nullopt; front && *front != *window_id) {
      auto taken_over = observer.snapshot(a11y::WindowQuery{.app = app, .window_id = front, .title = {}}, deadline);
      if (taken_over) {
        json.update(agent_view(**taken_over));
        json["handed_over_from"] = *window_id;
        return json;
      }
    }
  }
  if (!read) {
    json["problem"] = read.error().message;
    return json;
  }
  json.update(agent_view(**read));
  return json;
}

}  // namespace companyos::daemon::methods
