// The promotion gate's evidence: one compact row per finished run (revision, level, times,
// status, supervised, checks), kept at least 14 days whatever an automation's historyLimit.
// Rows are written and reverted inside the transaction that finishes or undoes the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "store/run_status.h"
#include "store/statement_cache.h"

namespace companyos::store {

// The gate's window: a moment t is "in the last 14 days" at `now` when
// t > now - kGateWindowSeconds. A run exactly 14 days old is therefore outside.
inline constexpr std::int64_t kGateWindowSeconds = 14 * 24 * 60 * 60;
constexpr bool in_gate_window(std::int64_t moment, std::int64_t now) {
  return moment > now - kGateWindowSeconds;
}

struct LedgerRow {
  std::int64_t run_id = 0;
  std::int64_t automation_id = 0;
  std::int64_t revision = 0;
  int level = 0;  // the automation's level when the run started
  std::int64_t started_at = 0;
  std::int64_t finished_at = 0;
  RunStatus status = RunStatus::kSucceeded;  // a final status: is_finished() holds
  bool supervised = false;  // started or approved by a person at level 3
  std::int64_t checks_passed = 0;
  std::int64_t checks_failed = 0;
  std::optional<std::int64_t> reverted_at;

  // When the row last changed what the gate sees (its finish or its undo); retention keeps
  // the row while this moment is younger than the window.
  std::int64_t last_event_at() const {
    return reverted_at && *reverted_at > finished_at ? *reverted_at : finished_at;
  }
};

class RunLedger {
 public:
  explicit RunLedger(Database& db) : sql_(db) {}

  // Inside the caller's transaction. A second row for one run is INTERNAL.
  Status append(const LedgerRow& row);
  // Inside the caller's transaction: the run's row becomes reverted at `at`.
  // NOT_FOUND when the run has no row.
  Status mark_reverted(std::int64_t run_id, std::int64_t at);

  // The gate's evidence for the automation's current revision at `now`: every row whose
  // finish or undo is inside the window, and every supervised executed run (condition 4
  // has no window). Oldest first. NOT_FOUND for an unknown automation.
  Result<std::vector<LedgerRow>> gate_evidence(std::int64_t automation_id, std::int64_t now) const;
  // Every row of one automation, oldest first.
  Result<std::vector<LedgerRow>> rows(std::int64_t automation_id) const;

 private:
  mutable StatementCache sql_;
};

}  // namespace companyos::store
