// History retention: each automation keeps the details (run, steps, checks, undo records) of
// its latest historyLimit finished runs; the run ledger keeps every row younger than the gate
// window and every supervised executed run of the current revision, whatever the limit.
#pragma once

#include <cstdint>

#include "companyos/result.h"
#include "core/clock.h"

namespace companyos::store {

class Database;
class StatementCache;

struct PruneCounts {
  std::int64_t runs = 0;          // finished runs whose details were deleted
  std::int64_t ledger_rows = 0;   // ledger rows no longer evidence
};

// Inside a transaction the caller holds (after a run finishes, after historyLimit is lowered).
// Active runs (running, waiting) are never pruned.
Result<std::int64_t> prune_run_details(StatementCache& sql, std::int64_t automation_id);
// Inside a transaction the caller holds: deletes ledger rows whose last event is older than
// the window at `now`, except supervised executed runs of their automation's current revision.
Result<std::int64_t> prune_ledger(StatementCache& sql, std::int64_t automation_id, std::int64_t now);

class Retention {
 public:
  Retention(Database& db, const Clock& clock) : db_(db), clock_(clock) {}
  // Prunes every automation in one transaction; the daemon calls it at start.
  Result<PruneCounts> prune_all();

 private:
  Database& db_;
  const Clock& clock_;
};

}  // namespace companyos::store
