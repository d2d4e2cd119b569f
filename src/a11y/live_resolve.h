// Resolves an action's target to exactly one live element of its window now, or refuses
// with nothing delivered. Live means: the app's tree from one Cache.GetItems call with
// every child count reconciled against live reads (read_window, structure only) — counts
// in a GetItems reply are computed at call time, so children the app's cache does not list
// (GTK3 never lists gtk_box_pack_start children and lists gtk_container_add ones late) are
// re-read and walked — then the accessible ids of the few nodes that could match.
//   ref:      none → STALE_REF {kind:"saved_ref_absent"}, several → AMBIGUOUS_TARGET
//             {kind:"identity_not_unique", candidates}, window or app gone →
//             WINDOW_NOT_FOUND {kind:"window_gone"}; unknown snapshot/element → STALE_REF.
//   selector: none → ELEMENT_NOT_FOUND, several (across the app's windows) →
//             AMBIGUOUS_TARGET {kind:"identity_not_unique", candidates}.
// Password managers → POLICY_DENIED. Uniqueness counts the whole window, never a view.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "a11y/action_target.h"
#include "a11y/model.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

struct ContainerInfo {
  std::string path;
  std::uint32_t role = 0;
  std::uint32_t interfaces = 0;
};

struct LiveTarget {
  std::string ref;                           // "" for a selector
  std::shared_ptr<const Snapshot> snapshot;  // the ref's snapshot; null for a selector
  const Node* stored = nullptr;              // the ref's element in *snapshot
  WindowInfo window;
  std::string app_name;
  std::string bus_name;
  std::optional<int> pid;
  // As read live: role, name, description, accessible id (known), states, interfaces,
  // path; bounds only with ResolveOptions::read_bounds.
  Node node;
  std::optional<ContainerInfo> parent;
  std::optional<ContainerInfo> grandparent;
  int position = 0;  // 1-based depth-first position in the live window tree
  std::size_t window_nodes = 0;
  // The live read of the window's structure the target was resolved in.
  std::shared_ptr<const Snapshot> structure;
  // A cell's table's rows and columns, as read to check its address (0 for any other target).
  std::int64_t table_rows = 0;
  std::int64_t table_columns = 0;
};

struct ResolveOptions {
  bool read_bounds = false;  // also read the element's bounds (as a snapshot would)
  // Read the cells tables show (a target with a cell reaches its cell by address instead).
  bool shown_cells = true;
};

Result<LiveTarget> resolve_live(Observer& observer, const ActionTarget& target, Deadline deadline,
                                const ResolveOptions& options = {});

}  // namespace companyos::a11y
