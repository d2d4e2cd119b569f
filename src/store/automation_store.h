// Stored automations: the definition (JSON text, validated before it gets here), its
// revisions, level and enabled flag. A revision is a version of the steps: an update whose
// preconditions/actions/postActions differ stores a new one, which resets the gate's
// evidence and drops a level-4 automation to 3 in the same transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "companyos/result.h"
#include "core/clock.h"
#include "store/run_status.h"
#include "store/statement_cache.h"

namespace companyos::store {

inline constexpr std::int64_t kMaxAutomations = 1000;
inline constexpr int kDefaultHistoryLimit = 30;

// What a caller chooses; level and revision are the store's.
struct AutomationFields {
  std::string name;
  std::string definition;  // a JSON object
  bool enabled = true;
  int history_limit = kDefaultHistoryLimit;  // 1-1000
};

struct LastRun {
  std::int64_t id = 0;
  RunStatus status = RunStatus::kRunning;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> finished_at;
};

struct AutomationRecord {
  std::int64_t id = 0;
  std::string name;
  bool enabled = true;
  int level = 1;
  std::int64_t revision = 1;
  int history_limit = kDefaultHistoryLimit;
  std::string definition;  // of the current revision
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  std::optional<LastRun> last_run;
};

struct RevisionRecord {
  std::int64_t revision = 0;
  std::string definition;
  std::int64_t created_at = 0;
};

struct UpdateOutcome {
  AutomationRecord automation;
  bool new_revision = false;      // the steps changed
  bool demoted = false;           // it was at level 4 and is now at 3
  std::int64_t pruned_runs = 0;   // a lowered historyLimit pruned at once
};

class AutomationStore {
 public:
  AutomationStore(Database& db, const Clock& clock) : db_(db), clock_(clock), sql_(db) {}

  // Level 1, revision 1. CONFLICT when the name is taken (details.name, details.id) or
  // kMaxAutomations exist (details.limit).
  Result<AutomationRecord> create(const AutomationFields& fields);
  // NOT_FOUND, CONFLICT (name taken by another), INVALID_ARGS (definition not an object).
  Result<UpdateOutcome> update(std::int64_t id, const AutomationFields& fields);
  Result<AutomationRecord> get(std::int64_t id) const;
  // By id, with each one's latest run.
  Result<std::vector<AutomationRecord>> list() const;
  // Deletes the automation with its revisions, runs and ledger rows. CONFLICT while a run
  // of it is active (details.run_id).
  Status remove(std::int64_t id);
  Result<AutomationRecord> set_enabled(std::int64_t id, bool enabled);
  // Stop-all: every automation disabled in one transaction; returns how many changed.
  Result<std::int64_t> disable_all();
  // 1-4 (5 is refused as not built). Whether a level may be reached is the caller's rule.
  Result<AutomationRecord> set_level(std::int64_t id, int level);
  Result<std::int64_t> count() const;
  // Oldest first.
  Result<std::vector<RevisionRecord>> revisions(std::int64_t id) const;
  Result<RevisionRecord> revision(std::int64_t id, std::int64_t revision) const;

 private:
  Database& db_;
  const Clock& clock_;
  mutable StatementCache sql_;
};

// Inside a transaction the caller holds: level 4 becomes 3 (after a failure, an undo or
// new steps). Returns whether it was at 4.
Result<bool> demote_from_unattended(StatementCache& sql, std::int64_t automation_id, std::int64_t now);

}  // namespace companyos::store
