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

// After the action: settles, then reads. {"settled": {waited_ms, events, still_changing,
// watched}, "snapshot", "window", "node_count", "outline", "handed_over_from"?} or, when
// no window could be read, {"settled": …, "problem": message}.
nlohmann::json settled_state(a11y::Observer& observer, a11y::SettleWatch& watch, const a11y::SettleRule& rule,
                             const std::string& app, const std::optional<std::string>& window_id, Deadline deadline);

}  // namespace companyos::daemon::methods
