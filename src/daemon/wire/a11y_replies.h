// The replies of observation, element actions and waits: a11y's structs as the protocol
// writes them (docs/protocol.md). Key order is not part of the format (objects are
// written with sorted keys).
#pragma once

#include <nlohmann/json.hpp>

#include "a11y/action_reply.h"
#include "a11y/model.h"
#include "a11y/cells.h"
#include "a11y/observer.h"
#include "a11y/view.h"
#include "a11y/wait.h"
#include "desktop/physical_click.h"

namespace companyos::wire {

// bounds: null, or {x, y, width, height}.
nlohmann::json bounds_to_json(const std::optional<Bounds>& bounds);
// A window as `windows` lists it and replies embed it: {id, title, role, app, pid, active,
// responsive, states, bounds} (reply_fields::window).
nlohmann::json window_to_json(const a11y::WindowInfo& window);
// One node: ref, role, name, description, accessible_id (null where not read), value,
// states, actions, bounds, twin (twin_group when a twin), value_withheld when withheld.
nlohmann::json node_to_json(const a11y::Snapshot& snapshot, const a11y::Node& node);
nlohmann::json app_to_json(const a11y::AppInfo& app);
// What names a stored snapshot: {"snapshot", "app", "pid", "window", "node_count"} (the
// head of snapshot_to_json, and one entry of `snapshots`).
nlohmann::json snapshot_summary_to_json(const a11y::Snapshot& snapshot);
// {"snapshot", "app", "pid", "window", "node_count", "stats", "tree"}: the view's tree,
// each node as node_to_json with children (and hidden_descendants where max_depth cut).
// Without the tree: the rest, for an outline reply.
nlohmann::json snapshot_to_json(const a11y::Snapshot& snapshot, const a11y::ViewNode& view,
                                bool with_tree = true);
// get: the node's fields, its window {id, title} and its text (null unless a text field).
nlohmann::json element_details_to_json(const a11y::ElementDetails& details);
// {range, rows: [[text|null, …], …], table_rows, table_columns, window}
nlohmann::json cell_rows_to_json(const a11y::CellRows& rows);
// find: node_to_json plus its window {id, title}.
nlohmann::json found_element_to_json(const a11y::FoundElement& found);

// surfaces: {"ref","kind","role","name","items","bounds","window":{id,title},"snapshot",
// "opener":{ref,role,name} or null}; the ref is the surface's own node, in a stored snapshot.
nlohmann::json surface_to_json(const a11y::OpenSurface& open);

nlohmann::json verification_to_json(const a11y::Verification& verification);
nlohmann::json expectation_to_json(const a11y::Expectation& expectation,
                                   const a11y::ExpectationResult& result);
// {"method","delivery","retry","route","target":{…},"verification","expectation",
//  "fingerprint","already","answered","timings","ms"} — "retry" is "safe" only for
//  not_delivered; "already" and "answered" appear only when true and false respectively.
nlohmann::json action_reply_to_json(const a11y::ActionReply& reply);

// A pointer click (click --headed): action_reply_to_json plus "point" {x, y} and "x11_window".
nlohmann::json pointer_click_to_json(const desktop::PointerClickReply& click);

// {"condition","elapsed_ms","seen_by","evidence","checks","events","events_active"}.
nlohmann::json wait_outcome_to_json(const a11y::WaitOutcome& outcome);
// The evidence member of that reply: its shape is the condition's (a11y/wait.h).
nlohmann::json wait_evidence_to_json(const a11y::WaitEvidence& evidence);

}  // namespace companyos::wire
