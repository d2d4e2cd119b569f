// Reads the complete tree of one window: the app's tree in one Cache.GetItems call,
// reconciled against live child counts (children re-read and missing subtrees walked
// live), then actions, bounds and values where nodes need them (details.h), with all calls
// in flight at once on one pipeline to the app under the one deadline. Bridges without
// GetItems get the same result from a pipelined live walk. APP_UNRESPONSIVE when the app
// does not finish before the deadline, APP_NOT_FOUND when it goes away meanwhile.
#pragma once

#include <cstddef>

#include "a11y/bus.h"
#include "a11y/model.h"
#include "a11y/read/details.h"
#include "core/deadline.h"
#include "core/result.h"

namespace companyos::a11y {

struct SnapshotOptions {
  DetailOptions details;
  AccessibleIds accessible_ids = AccessibleIds::kWhereIdentityNeedsThem;
  bool details_enabled = true;     // false: structure only (role, name, states, …)
  std::size_t max_nodes = 50000;   // a larger window is cut here (stats.truncated)
  bool use_bulk = true;            // false forces the live walk (tests, comparisons)
};

// The snapshot's id is left empty; the caller names and stores it.
Result<Snapshot> read_window(Bus& bus, const WindowInfo& window, Deadline deadline,
                             const SnapshotOptions& options = {});

}  // namespace companyos::a11y
