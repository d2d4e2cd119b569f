// Reads the complete tree of one window: the app's tree in one Cache.GetItems call,
// reconciled against live child counts (children re-read and missing subtrees walked
// live), then actions, bounds and values where nodes need them (details.h), with all calls
// in flight at once on one pipeline to the app under the one deadline. Bridges without
// GetItems get the same result from a pipelined live walk. APP_UNRESPONSIVE when the app
// answers nothing before the deadline; TIMEOUT (reason too_big_for_deadline) when it
// answered but the window could not be read in time; APP_NOT_FOUND when it goes away.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "a11y/bus.h"
#include "a11y/model.h"
#include "a11y/read/details.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

inline constexpr std::size_t kMaxSnapshotNodes = 20000;
inline constexpr int kMaxSnapshotDepth = 1000;

// One app's answer to Cache.GetItems: its whole tree, every window of it.
struct AppBulkRead {
  bool supported = false;  // it answered with its items (else the live walk must do)
  std::vector<RawNode> items;
};

// The bulk reads of one request, by app bus name: a request that reads several windows of
// one app (a selector over all its windows; LibreOffice with its Tip of the Day open) asks
// the app for its whole tree once. Made per request and never kept past it, so every
// request still reads each app afresh.
class BulkReads {
 public:
  const AppBulkRead* find(const std::string& bus_name) const;
  void keep(const std::string& bus_name, AppBulkRead read);

 private:
  std::map<std::string, AppBulkRead> by_app_;
};

struct SnapshotOptions {
  DetailOptions details;
  AccessibleIds accessible_ids = AccessibleIds::kWhereIdentityNeedsThem;
  bool details_enabled = true;     // false: structure only (role, name, states, …)
  // Bounds by design, not by luck (docs/observation.md): a window with more nodes, or
  // deeper, is read this far and cut (stats.truncated): the walk itself stops, so neither
  // the calls in flight nor the memory grow with what the app claims.
  std::size_t max_nodes = kMaxSnapshotNodes;
  int max_walk_depth = kMaxSnapshotDepth;
  bool use_bulk = true;            // false forces the live walk (tests, comparisons)
  // Empty: the whole window. Else the object path of one element of it: the read starts
  // there, so a window too big to read whole can be read a part at a time, each part with
  // the whole budget (STALE_REF element_gone once that element is gone).
  std::string root_path;
  // false: a table or list too large to list is read without its cells (its size alone),
  // for a read that reaches cells by address anyway (live_resolve.h).
  bool shown_cells = true;
  // true: what is not showing is read only as far as the bulk read lists it (no live reads
  // under it: LibreOffice's closed menus are most of its reconciling), for a read that
  // looks only for what can be on screen (live_resolve.h: a cell's table).
  bool showing_only = false;
  // The request's bulk reads, or null: the first read of an app's window keeps its GetItems
  // answer there, and reads of the app's other windows start from it.
  BulkReads* bulk_reads = nullptr;
};

// The snapshot's id is left empty; the caller names and stores it.
Result<Snapshot> read_window(Bus& bus, const WindowInfo& window, Deadline deadline,
                             const SnapshotOptions& options = {});

}  // namespace companyos::a11y
