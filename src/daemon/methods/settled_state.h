// "settle": true on an action: its reply carries the state the app settled in after it
// (a11y/settle.h) — the window acted on, read as the agent view (snapshot -i --compact,
// outline), or, when that window closed, the app's window now active (else its only titled
// one), and the reply says which took over.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "a11y/observer.h"
#include "a11y/render.h"
#include "a11y/settle.h"
#include "a11y/view.h"
#include "core/deadline.h"

namespace companyos::daemon::methods {

// The folds of the agent view (-i --compact), for snapshot and settled states alike: what
// is not on screen where the toolkit says so reliably, nameless groups, the actions a
// toolkit lists on every node, and containers' values (their children's text).
void fold_as_agent_view(a11y::ViewOptions& view, a11y::OutlineOptions& outline, const a11y::Snapshot& snapshot);

// What settling adds to an action's deadline: the bound, and a read of the window.
inline constexpr std::chrono::milliseconds kSettleBudget = a11y::SettleRule{}.bound + std::chrono::milliseconds(3000);

// The request's params with its deadline grown by kSettleBudget when it asks to settle.
nlohmann::json with_settle_budget(nlohmann::json params);

// The app's bus names as the daemon knows them (listing its windows once if it knows none),
// to watch from before the action.
std::vector<std::string> bus_names_of(a11y::Observer& observer, const std::string& app, Deadline deadline);

// The ids of the windows the daemon knows of these apps (their last listing): taken before
// an action, so a window the action opens is told from those that were there.
std::vector<std::string> known_window_ids(a11y::Observer& observer, const std::vector<std::string>& bus_names);

// The app's active window when the action opened it: active now, not among BEFORE, not
// the window acted on (a Save As dialog that ctrl+shift+s opened). nullopt otherwise, and
// when BEFORE is empty (no listing to tell new windows from old ones).
std::optional<std::string> window_opened_in_front(const std::vector<a11y::WindowInfo>& now,
                                                  const std::vector<std::string>& before,
                                                  const std::optional<std::string>& acted_on);

// After the action: settles, then reads the window the action opened in front of the app
// (window_opened_in_front: "opened_over" names the one acted on), else the window acted on,
// else — when that one closed — the app's window now in front ("handed_over_from").
// {"settled": {waited_ms, events, still_changing, watched}, "snapshot", "window",
// "node_count", "outline", "opened_over"?, "handed_over_from"?} or, when no window could be
// read, {"settled": …, "problem": message}.
nlohmann::json settled_state(a11y::Observer& observer, a11y::SettleWatch& watch, const a11y::SettleRule& rule,
                             const std::string& app, const std::optional<std::string>& window_id,
                             const std::vector<std::string>& windows_before, Deadline deadline);

}  // namespace companyos::daemon::methods
