// Runs of automations: start, wait for a person, approve, record steps (output capped at
// 64 KiB a step, 128 KiB a run), checks and undo records, finish, undo, page through them.
// Finishing or undoing a run writes its ledger row and, for a failure or an undo, drops a
// level-4 automation to 3 — all in the one transaction that changes the run's status.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "core/clock.h"
#include "store/run_ledger.h"
#include "store/run_status.h"
#include "store/statement_cache.h"

namespace companyos::store {

// Who started a run: a person (CLI, dashboard), an agent (MCP) or a schedule. Only a
// person's start, or a person's approval, at level 3 makes a run supervised.
enum class RunStarter { kPerson, kSchedule, kAgent };
std::string_view to_string(RunStarter starter);
RunStarter run_starter_from_string(std::string_view name);  // unknown text reads as kPerson

inline constexpr std::string_view kInterruptedReason = "daemon restarted before completion";

struct RunStart {
  std::int64_t automation_id = 0;
  RunStarter starter = RunStarter::kPerson;
  // A scheduled trigger below level 4 (or with unattended runs off) waits for a person.
  std::optional<std::string> waiting_description;
  // The max_level setting: a run behaves at the lower of it and the stored level.
  int max_level = 4;
};

struct RunRecord {
  std::int64_t id = 0;
  std::int64_t automation_id = 0;
  std::int64_t revision = 0;
  int level = 0;  // the automation's level when the run started
  RunStatus status = RunStatus::kRunning;
  bool supervised = false;  // started or approved by a person at level 3
  RunStarter starter = RunStarter::kPerson;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> finished_at;
  std::optional<std::int64_t> approved_at;
  std::optional<std::int64_t> waiting_since;
  std::optional<std::string> waiting_description;
  std::optional<std::string> reason;
  std::int64_t step_count = 0;
  std::int64_t output_bytes = 0;
};

// CONFLICT (details.run_id, details.status) when the run cannot be undone: it is still
// active, was skipped (nothing ran) or is already reverted. revert() refuses the same runs;
// the runner asks first, before any inverse runs.
Status check_undoable(const RunRecord& run);

struct StepRecord {
  int seq = 0;
  std::string phase;  // precondition, action, post
  std::string type;
  std::optional<std::string> name;
  std::string status;
  std::optional<std::string> delivery;
  std::optional<std::string> error_code;
  std::optional<std::string> reason;
  std::int64_t duration_ms = 0;
  std::string output;
  bool output_truncated = false;     // the runner or the store cut the output
  std::optional<bool> check_passed;  // a check step: counts for the gate
};

struct CheckRecord {
  int seq = 0;
  bool passed = false;
};

enum class UndoKind { kRestoreValue, kCommand, kCloseWindow };

// What undoing one step needs. The previous value is kept only for undo and goes with the
// run's details; nothing here is logged.
struct UndoRecord {
  int seq = 0;
  UndoKind kind = UndoKind::kRestoreValue;
  std::optional<std::string> previous_value;  // restore_value
  std::optional<std::string> command;         // command: JSON text of the declared undo
  std::optional<std::string> window;          // close_window: JSON text naming the window
};

struct RunDetail {
  RunRecord run;
  std::vector<StepRecord> steps;
  std::vector<CheckRecord> checks;
};

struct RunFilter {
  std::optional<RunStatus> status;
  int page = 1;  // from 1
  int page_size = 20;
};

struct RunPage {
  std::vector<RunRecord> runs;  // newest first
  std::int64_t total = 0;       // matching runs on every page
  int page = 1;
  int page_size = 20;
};

struct FinishedRun {
  RunRecord run;
  bool demoted = false;  // the automation dropped from level 4 to 3
};

class RunStore {
 public:
  // Keep one for the store's life: it caches its prepared statements.
  RunStore(Database& db, const Clock& clock) : db_(db), clock_(clock), sql_(db), ledger_(db) {}

  // A new run of the automation's current revision at its current level, running or (with a
  // waiting description) waiting. CONFLICT while another run of it is active; NOT_FOUND.
  Result<RunRecord> start(const RunStart& start);
  // A trigger that came while a run was active: a run that is skipped from the start, with
  // its ledger row. Allowed while another run of the automation is active.
  Result<RunRecord> record_skipped(const RunStart& start, std::string reason);
  // running -> waiting (a step asks a person). CONFLICT from any other status.
  Result<RunRecord> wait_for_person(std::int64_t run_id, std::string_view description);
  // waiting -> running; approval by a person at level 3 makes the run supervised. CONFLICT
  // from any other status.
  Result<RunRecord> approve(std::int64_t run_id);
  // waiting -> running without a person: a step's question withdrawn because its asker went
  // on without an answer. approved_at and supervised stay as they were. CONFLICT from any
  // other status.
  Result<RunRecord> resume(std::int64_t run_id);

  // While the run is active. CONFLICT for a finished run or a seq already recorded.
  Status record_step(std::int64_t run_id, const StepRecord& step);
  Status record_undo(std::int64_t run_id, const UndoRecord& undo);
  // Highest seq first: the order undo runs them in.
  Result<std::vector<UndoRecord>> undo_records(std::int64_t run_id) const;
  // After its inverse ran: a later undo of the run (the first one failed part-way) skips it.
  // NOT_FOUND when the run has no such undo record; CONFLICT while the run is active.
  Status mark_undone(std::int64_t run_id, int seq);
  // The seqs mark_undone recorded, highest first.
  Result<std::vector<int>> undone_seqs(std::int64_t run_id) const;

  // Ends an active run with `event` (transition() decides its status); writes the ledger
  // row, demotes on failure and prunes history. CONFLICT when the run's status does not
  // accept the event; INVALID_ARGS for an event that does not end a run (undo: revert()).
  // finished_at: when the run ended, if not now (an end the store could not record then).
  Result<FinishedRun> finish(std::int64_t run_id, RunEvent event,
                             std::optional<std::string> reason = std::nullopt,
                             std::optional<std::int64_t> finished_at = std::nullopt);
  // A finished run (not skipped, not already reverted) becomes reverted; demotes.
  Result<FinishedRun> revert(std::int64_t run_id, std::optional<std::string> reason = std::nullopt);
  // At daemon start: every running or waiting run fails with kInterruptedReason, each with its
  // ledger row and demotion, in one transaction. Returns how many. A note for a run is added
  // to its reason ("daemon restarted before completion; <note>").
  Result<std::int64_t> mark_interrupted_runs_failed(const std::map<std::int64_t, std::string>& notes = {});

  Result<RunRecord> get(std::int64_t run_id) const;
  Result<RunDetail> detail(std::int64_t run_id) const;
  // INVALID_ARGS for a page below 1; NOT_FOUND for the automation.
  Result<RunPage> list(std::int64_t automation_id, const RunFilter& filter) const;
  // Running and waiting runs of every automation, oldest first (stop-all, approvals).
  Result<std::vector<RunRecord>> active() const;
  // The newest run's id (0: none yet): a run that started and ended between two looks
  // still changes it (the dashboard's live updates).
  Result<std::int64_t> newest_id() const;

 private:
  // approve (by_person) and resume: the one way out of waiting.
  Result<RunRecord> leave_wait(std::int64_t run_id, bool by_person);

  Database& db_;
  const Clock& clock_;
  mutable StatementCache sql_;
  RunLedger ledger_;
};

}  // namespace companyos::store
