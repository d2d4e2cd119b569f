#include "store/run_store.h"

#include <algorithm>

#include "store/automation_store.h"
#include "store/database.h"
#include "store/output_cap.h"
#include "store/retention.h"

namespace companyos::store {
namespace {

constexpr std::string_view kRunColumns =
    "id, automation_id, revision, level, status, supervised, started_by, started_at, "
    "finished_at, approved_at, waiting_since, waiting_description, reason, step_count, "
    "output_bytes";

std::string select_runs(std::string_view where) {
  return "SELECT " + std::string(kRunColumns) + " FROM runs " + std::string(where);
}

std::optional<std::int64_t> optional_int(const Statement& stmt, int i) {
  if (stmt.column_is_null(i)) return std::nullopt;
  return stmt.column_int64(i);
}

std::optional<std::string> optional_text(const Statement& stmt, int i) {
  if (stmt.column_is_null(i)) return std::nullopt;
  return stmt.column_text(i);
}

const std::string& active_statuses() {
  static const std::string list = sql_status_list(is_active);
  return list;
}

Result<RunRecord> read_run(const Statement& stmt) {
  auto status = stored_run_status(stmt.column_text(4));
  if (!status) return std::move(status).take_error();
  RunRecord run;
  run.id = stmt.column_int64(0);
  run.automation_id = stmt.column_int64(1);
  run.revision = stmt.column_int64(2);
  run.level = static_cast<int>(stmt.column_int64(3));
  run.status = *status;
  run.supervised = stmt.column_int64(5) != 0;
  run.starter = run_starter_from_string(stmt.column_text(6));
  run.started_at = stmt.column_int64(7);
  run.finished_at = optional_int(stmt, 8);
  run.approved_at = optional_int(stmt, 9);
  run.waiting_since = optional_int(stmt, 10);
  run.waiting_description = optional_text(stmt, 11);
  run.reason = optional_text(stmt, 12);
  run.step_count = stmt.column_int64(13);
  run.output_bytes = stmt.column_int64(14);
  return run;
}

Result<std::vector<RunRecord>> read_runs(Statement& stmt) {
  std::vector<RunRecord> runs;
  auto read = stmt.each_row([&runs](Statement& row) -> Status {
    auto run = read_run(row);
    if (!run) return std::move(run).take_error();
    runs.push_back(std::move(run).value());
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return runs;
}

Error run_not_found(std::int64_t run_id) {
  return make_error(ErrorCode::kNotFound,
                    "no run with id " + std::to_string(run_id) +
                        " (it may have been pruned by the automation's historyLimit)",
                    {{"run_id", run_id}});
}

Error automation_not_found(std::int64_t id) {
  return make_error(ErrorCode::kNotFound, "no automation with id " + std::to_string(id), {{"id", id}});
}

Error wrong_status(std::int64_t run_id, RunStatus status, std::string why) {
  return make_error(ErrorCode::kConflict,
                    "run " + std::to_string(run_id) + " is " + std::string(to_string(status)) + ": " +
                        std::move(why),
                    {{"run_id", run_id}, {"status", status}});
}

// The status `event` moves the run to, or CONFLICT when the run's status does not accept it
// (worded with `why` for a run that has already ended).
Result<RunStatus> next_status(const RunRecord& run, RunEvent event, std::string_view why) {
  auto to = transition(run.status, event);
  if (to) return to;
  if (is_finished(run.status) && event != RunEvent::kUndo) {
    return wrong_status(run.id, run.status, "it has ended, so it cannot " + std::string(why));
  }
  Error error = std::move(to).take_error();
  error.message = "run " + std::to_string(run.id) + ": " + error.message;
  error.details["run_id"] = run.id;
  return error;
}

Result<RunRecord> load_run(StatementCache& sql, std::int64_t run_id) {
  auto lease = sql.prepare(select_runs("WHERE id = ?1"));
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, run_id);
  auto found = stmt.step();
  if (!found) return std::move(found).take_error();
  if (!*found) return run_not_found(run_id);
  return read_run(stmt);
}

Result<RunRecord> load_active_run(StatementCache& sql, std::int64_t run_id, std::string_view doing) {
  auto run = load_run(sql, run_id);
  if (!run) return run;
  if (is_finished(run->status)) {
    return wrong_status(run_id, run->status, "it has ended, so it cannot " + std::string(doing));
  }
  return run;
}

// The next run id, claimed: above every run and ledger row there is and every id ever given
// (id_high_water), so an id names one run forever, its automation deleted or not. Called
// inside the transaction that inserts the run.
Result<std::int64_t> claim_run_id(StatementCache& sql) {
  std::int64_t id = 0;
  {
    auto lease = sql.prepare(
        "SELECT max((SELECT coalesce(max(id), 0) FROM runs), "
        "           (SELECT coalesce(max(run_id), 0) FROM run_ledger), "
        "           (SELECT coalesce(max(last_id), 0) FROM id_high_water WHERE name = 'runs')) + 1");
    if (!lease) return std::move(lease).take_error();
    Statement& stmt = **lease;
    auto row = stmt.step();
    if (!row) return std::move(row).take_error();
    id = stmt.column_int64(0);
  }
  auto lease = sql.prepare(
      "INSERT INTO id_high_water (name, last_id) VALUES ('runs', ?1) "
      "ON CONFLICT (name) DO UPDATE SET last_id = excluded.last_id");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, id);
  if (auto st = stmt.run(); !st) return std::move(st).take_error();
  return id;
}

struct CheckCounts {
  std::int64_t passed = 0;
  std::int64_t failed = 0;
};

Result<CheckCounts> count_checks(StatementCache& sql, std::int64_t run_id) {
  auto lease = sql.prepare("SELECT coalesce(sum(passed), 0), count(*) FROM checks WHERE run_id = ?1");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, run_id);
  auto row = stmt.step();
  if (!row) return std::move(row).take_error();
  const std::int64_t passed = stmt.column_int64(0);
  return CheckCounts{passed, stmt.column_int64(1) - passed};
}

// Inside the caller's transaction: the status change, the ledger row, the demotion and the
// pruning that follow the end of a run. Returns whether the automation was demoted.
Result<bool> end_active_run(StatementCache& sql, RunLedger& ledger, std::int64_t run_id, RunEvent event,
                            const std::optional<std::string>& reason, std::int64_t now) {
  auto run = load_run(sql, run_id);
  if (!run) return std::move(run).take_error();
  auto status = next_status(*run, event, "end again");
  if (!status) return std::move(status).take_error();
  if (is_active(*status) || event == RunEvent::kUndo) {
    return make_error(ErrorCode::kInvalidArgs,
                      "run " + std::to_string(run_id) + ": " + std::string(to_string(event)) +
                          " does not end a run",
                      {{"run_id", run_id}, {"event", to_string(event)}});
  }
  {
    auto lease = sql.prepare(
        "UPDATE runs SET status = ?2, finished_at = ?3, reason = ?4, waiting_since = NULL, "
        "waiting_description = NULL WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& update = **lease;
    update.bind(1, run_id).bind(2, to_string(*status)).bind(3, now).bind(4, reason);
    if (auto st = update.run(); !st) return std::move(st).take_error();
  }

  auto checks = count_checks(sql, run_id);
  if (!checks) return std::move(checks).take_error();
  LedgerRow row;
  row.run_id = run_id;
  row.automation_id = run->automation_id;
  row.revision = run->revision;
  row.level = run->level;
  row.started_at = run->started_at;
  row.finished_at = now;
  row.status = *status;
  row.supervised = run->supervised;
  row.checks_passed = checks->passed;
  row.checks_failed = checks->failed;
  if (auto st = ledger.append(row); !st) return std::move(st).take_error();

  bool demoted = false;
  if (demotes_unattended(*status)) {
    auto result = demote_from_unattended(sql, run->automation_id, now);
    if (!result) return std::move(result).take_error();
    demoted = *result;
  }
  if (auto pruned = prune_run_details(sql, run->automation_id); !pruned) {
    return std::move(pruned).take_error();
  }
  if (auto pruned = prune_ledger(sql, run->automation_id, now); !pruned) {
    return std::move(pruned).take_error();
  }
  return demoted;
}

// ?2 of a list query: the filter's status, or NULL for every status.
void bind_status_filter(Statement& stmt, const RunFilter& filter) {
  if (filter.status) {
    stmt.bind(2, to_string(*filter.status));
  } else {
    stmt.bind_null(2);
  }
}

// The insert's primary key would refuse a duplicate too, but as an opaque store error.
Status require_new_seq(StatementCache& sql, std::string_view table, std::int64_t run_id, int seq) {
  auto lease = sql.prepare("SELECT 1 FROM " + std::string(table) + " WHERE run_id = ?1 AND seq = ?2");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, run_id).bind(2, static_cast<std::int64_t>(seq));
  auto found = stmt.step();
  if (!found) return std::move(found).take_error();
  if (*found) {
    return make_error(ErrorCode::kConflict,
                      "run " + std::to_string(run_id) + " already has " + std::string(table) +
                          " entry " + std::to_string(seq),
                      {{"run_id", run_id}, {"seq", seq}});
  }
  return ok_status();
}

std::string_view to_string(UndoKind kind) {
  switch (kind) {
    case UndoKind::kRestoreValue: return "restore_value";
    case UndoKind::kCommand: return "command";
    case UndoKind::kCloseWindow: return "close_window";
  }
  return "restore_value";
}

UndoKind undo_kind_from(std::string_view text) {
  if (text == "command") return UndoKind::kCommand;
  if (text == "close_window") return UndoKind::kCloseWindow;
  return UndoKind::kRestoreValue;
}

// Inside the caller's transaction: a new run of the automation's current revision, running
// or (with a waiting description) waiting, at the lower of its level and max_level.
Result<std::int64_t> insert_run(StatementCache& sql, const RunStart& start, std::int64_t now) {
  if (start.max_level < 1 || start.max_level > 4) {
    return make_error(ErrorCode::kInvalidArgs, "max_level is from 1 to 4",
                      {{"max_level", start.max_level}});
  }
  std::int64_t level = 0;
  std::int64_t revision = 0;
  {
    auto lease = sql.prepare("SELECT level, current_revision FROM automations WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& automation = **lease;
    automation.bind(1, start.automation_id);
    auto found = automation.step();
    if (!found) return std::move(found).take_error();
    if (!*found) return automation_not_found(start.automation_id);
    level = std::min<std::int64_t>(automation.column_int64(0), start.max_level);
    revision = automation.column_int64(1);
  }

  auto id = claim_run_id(sql);
  if (!id) return id;
  const bool by_person = start.starter == RunStarter::kPerson;
  const bool waiting = start.waiting_description.has_value();
  auto lease = sql.prepare(
      "INSERT INTO runs (id, automation_id, revision, status, level, supervised, started_by, "
      "started_at, waiting_since, waiting_description) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  if (!lease) return std::move(lease).take_error();
  Statement& insert = **lease;
  insert.bind(1, *id)
      .bind(2, start.automation_id)
      .bind(3, revision)
      .bind(4, to_string(waiting ? RunStatus::kWaiting : RunStatus::kRunning))
      .bind(5, level)
      .bind(6, static_cast<std::int64_t>(by_person && level == 3 ? 1 : 0))
      .bind(7, to_string(start.starter))
      .bind(8, now)
      .bind(10, start.waiting_description);
  if (waiting) {
    insert.bind(9, now);
  } else {
    insert.bind_null(9);
  }
  if (auto st = insert.run(); !st) return std::move(st).take_error();
  return id;
}

}  // namespace

std::string_view to_string(RunStarter starter) {
  switch (starter) {
    case RunStarter::kSchedule: return "schedule";
    case RunStarter::kAgent: return "agent";
    case RunStarter::kPerson: break;
  }
  return "person";
}

RunStarter run_starter_from_string(std::string_view name) {
  if (name == "schedule") return RunStarter::kSchedule;
  if (name == "agent") return RunStarter::kAgent;
  return RunStarter::kPerson;
}

Status check_undoable(const RunRecord& run) {
  if (transition(run.status, RunEvent::kUndo)) return ok_status();
  const char* why = run.status == RunStatus::kReverted  ? "it was already undone"
                    : run.status == RunStatus::kSkipped ? "its preconditions failed, so nothing ran to undo"
                                                        : "stop it before undoing it";
  return wrong_status(run.id, run.status, why);
}

Result<RunRecord> RunStore::start(const RunStart& start) {
  const std::int64_t now = clock_.unix_seconds();
  std::int64_t run_id = 0;
  auto status = db_.transaction([&]() -> Status {
    {
      auto lease = sql_.prepare("SELECT id, status FROM runs WHERE automation_id = ?1 AND status IN (" +
                                active_statuses() + ")");
      if (!lease) return std::move(lease).take_error();
      Statement& active = **lease;
      active.bind(1, start.automation_id);
      auto busy = active.step();
      if (!busy) return std::move(busy).take_error();
      if (*busy) {
        return make_error(ErrorCode::kConflict,
                          "automation " + std::to_string(start.automation_id) + " already has run " +
                              std::to_string(active.column_int64(0)) + " " + active.column_text(1),
                          {{"id", start.automation_id}, {"run_id", active.column_int64(0)}},
                          "wait for it to end, or stop it first");
      }
    }
    auto id = insert_run(sql_, start, now);
    if (!id) return std::move(id).take_error();
    run_id = *id;
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  return load_run(sql_, run_id);
}

Result<RunRecord> RunStore::record_skipped(const RunStart& start, std::string reason) {
  const std::int64_t now = clock_.unix_seconds();
  std::int64_t run_id = 0;
  RunStart running = start;
  running.waiting_description.reset();
  auto status = db_.transaction([&]() -> Status {
    auto id = insert_run(sql_, running, now);
    if (!id) return std::move(id).take_error();
    run_id = *id;
    auto ended = end_active_run(sql_, ledger_, run_id, RunEvent::kSkip, reason, now);
    if (!ended) return std::move(ended).take_error();
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  return load_run(sql_, run_id);
}

Result<RunRecord> RunStore::wait_for_person(std::int64_t run_id, std::string_view description) {
  auto status = db_.transaction([&]() -> Status {
    auto run = load_run(sql_, run_id);
    if (!run) return std::move(run).take_error();
    auto to = transition(run->status, RunEvent::kAskApproval);
    if (!to) return wrong_status(run_id, run->status, "only a running run can wait");
    auto lease = sql_.prepare(
        "UPDATE runs SET status = ?4, waiting_since = ?2, waiting_description = ?3 WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& stmt = **lease;
    stmt.bind(1, run_id).bind(2, clock_.unix_seconds()).bind(3, description).bind(4, to_string(*to));
    return stmt.run();
  });
  if (!status) return std::move(status).take_error();
  return load_run(sql_, run_id);
}

Result<RunRecord> RunStore::approve(std::int64_t run_id) { return leave_wait(run_id, true); }

Result<RunRecord> RunStore::resume(std::int64_t run_id) { return leave_wait(run_id, false); }

// waiting -> running; only a person's approval stamps approved_at and supervises level 3.
Result<RunRecord> RunStore::leave_wait(std::int64_t run_id, bool by_person) {
  auto status = db_.transaction([&]() -> Status {
    auto run = load_run(sql_, run_id);
    if (!run) return std::move(run).take_error();
    auto to = transition(run->status, RunEvent::kApprove);
    if (!to) {
      return wrong_status(run_id, run->status,
                          by_person ? "only a waiting run can be approved" : "only a waiting run can resume");
    }
    auto lease = sql_.prepare(
        "UPDATE runs SET status = ?3, waiting_since = NULL, waiting_description = NULL, "
        "approved_at = CASE WHEN ?4 THEN ?2 ELSE approved_at END, "
        "supervised = CASE WHEN ?4 AND level = 3 THEN 1 ELSE supervised END "
        "WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& stmt = **lease;
    stmt.bind(1, run_id)
        .bind(2, clock_.unix_seconds())
        .bind(3, to_string(*to))
        .bind(4, static_cast<std::int64_t>(by_person ? 1 : 0));
    return stmt.run();
  });
  if (!status) return std::move(status).take_error();
  return load_run(sql_, run_id);
}

Status RunStore::record_step(std::int64_t run_id, const StepRecord& step) {
  if (step.phase != "precondition" && step.phase != "action" && step.phase != "post") {
    return make_error(ErrorCode::kInvalidArgs,
                      "a step's phase is precondition, action or post, not '" + step.phase + "'");
  }
  return db_.transaction([&]() -> Status {
    auto run = load_active_run(sql_, run_id, "record steps");
    if (!run) return std::move(run).take_error();
    if (auto st = require_new_seq(sql_, "run_steps", run_id, step.seq); !st) return st;
    const auto used = static_cast<std::size_t>(std::max<std::int64_t>(run->output_bytes, 0));
    const std::size_t left = used >= kRunOutputCap ? 0 : kRunOutputCap - used;
    CappedOutput output = cap_output(step.output, std::min(kStepOutputCap, left));
    output.truncated = output.truncated || step.output_truncated;
    {
      auto lease = sql_.prepare(
          "INSERT INTO run_steps (run_id, seq, phase, type, name, status, delivery, error_code, "
          "reason, output, output_truncated, duration_ms) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
      if (!lease) return std::move(lease).take_error();
      Statement& insert = **lease;
      insert.bind(1, run_id)
          .bind(2, static_cast<std::int64_t>(step.seq))
          .bind(3, std::string_view(step.phase))
          .bind(4, std::string_view(step.type))
          .bind(5, step.name)
          .bind(6, std::string_view(step.status))
          .bind(7, step.delivery)
          .bind(8, step.error_code)
          .bind(9, step.reason)
          .bind(10, std::string_view(output.text))
          .bind(11, static_cast<std::int64_t>(output.truncated ? 1 : 0))
          .bind(12, step.duration_ms);
      if (auto st = insert.run(); !st) return st;
    }
    if (step.check_passed) {
      auto lease = sql_.prepare("INSERT INTO checks (run_id, seq, passed) VALUES (?1, ?2, ?3)");
      if (!lease) return std::move(lease).take_error();
      Statement& check = **lease;
      check.bind(1, run_id)
          .bind(2, static_cast<std::int64_t>(step.seq))
          .bind(3, static_cast<std::int64_t>(*step.check_passed ? 1 : 0));
      if (auto st = check.run(); !st) return st;
    }
    auto lease = sql_.prepare(
        "UPDATE runs SET step_count = step_count + 1, output_bytes = output_bytes + ?2 WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& totals = **lease;
    totals.bind(1, run_id).bind(2, static_cast<std::int64_t>(output.text.size()));
    return totals.run();
  });
}

Status RunStore::record_undo(std::int64_t run_id, const UndoRecord& undo) {
  return db_.transaction([&]() -> Status {
    if (auto run = load_active_run(sql_, run_id, "record undo steps"); !run) {
      return std::move(run).take_error();
    }
    if (auto st = require_new_seq(sql_, "run_undo", run_id, undo.seq); !st) return st;
    auto lease = sql_.prepare(
        "INSERT INTO run_undo (run_id, seq, kind, previous_value, command, window) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!lease) return std::move(lease).take_error();
    Statement& insert = **lease;
    insert.bind(1, run_id)
        .bind(2, static_cast<std::int64_t>(undo.seq))
        .bind(3, to_string(undo.kind))
        .bind(4, undo.previous_value)
        .bind(5, undo.command)
        .bind(6, undo.window);
    return insert.run();
  });
}

Result<std::vector<UndoRecord>> RunStore::undo_records(std::int64_t run_id) const {
  if (auto run = load_run(sql_, run_id); !run) return std::move(run).take_error();
  auto lease = sql_.prepare(
      "SELECT seq, kind, previous_value, command, window FROM run_undo WHERE run_id = ?1 "
      "ORDER BY seq DESC");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, run_id);
  std::vector<UndoRecord> records;
  auto read = stmt.each_row([&records](Statement& row) {
    records.push_back({static_cast<int>(row.column_int64(0)), undo_kind_from(row.column_text(1)),
                       optional_text(row, 2), optional_text(row, 3), optional_text(row, 4)});
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return records;
}

Status RunStore::mark_undone(std::int64_t run_id, int seq) {
  return db_.transaction([&]() -> Status {
    auto run = load_run(sql_, run_id);
    if (!run) return std::move(run).take_error();
    if (is_active(run->status)) return wrong_status(run_id, run->status, "stop it before undoing it");
    auto lease = sql_.prepare("UPDATE run_undo SET undone_at = ?3 WHERE run_id = ?1 AND seq = ?2");
    if (!lease) return std::move(lease).take_error();
    Statement& stmt = **lease;
    stmt.bind(1, run_id).bind(2, static_cast<std::int64_t>(seq)).bind(3, clock_.unix_seconds());
    if (auto st = stmt.run(); !st) return st;
    if (sqlite3_changes(db_.handle()) == 0) {
      return make_error(ErrorCode::kNotFound,
                        "run " + std::to_string(run_id) + " has no undo record for step " + std::to_string(seq),
                        {{"run_id", run_id}, {"seq", seq}});
    }
    return ok_status();
  });
}

Result<std::vector<int>> RunStore::undone_seqs(std::int64_t run_id) const {
  if (auto run = load_run(sql_, run_id); !run) return std::move(run).take_error();
  auto lease = sql_.prepare(
      "SELECT seq FROM run_undo WHERE run_id = ?1 AND undone_at IS NOT NULL ORDER BY seq DESC");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, run_id);
  std::vector<int> seqs;
  auto read = stmt.each_row([&seqs](Statement& row) {
    seqs.push_back(static_cast<int>(row.column_int64(0)));
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return seqs;
}

Result<FinishedRun> RunStore::finish(std::int64_t run_id, RunEvent event, std::optional<std::string> reason,
                                     std::optional<std::int64_t> finished_at) {
  bool demoted = false;
  auto result = db_.transaction([&]() -> Status {
    auto ended = end_active_run(sql_, ledger_, run_id, event, reason, finished_at.value_or(clock_.unix_seconds()));
    if (!ended) return std::move(ended).take_error();
    demoted = *ended;
    return ok_status();
  });
  if (!result) return std::move(result).take_error();
  auto run = load_run(sql_, run_id);
  if (!run) return std::move(run).take_error();
  return FinishedRun{std::move(run).value(), demoted};
}

Result<FinishedRun> RunStore::revert(std::int64_t run_id, std::optional<std::string> reason) {
  const std::int64_t now = clock_.unix_seconds();
  bool demoted = false;
  auto result = db_.transaction([&]() -> Status {
    auto run = load_run(sql_, run_id);
    if (!run) return std::move(run).take_error();
    if (auto st = check_undoable(*run); !st) return st;
    auto status = transition(run->status, RunEvent::kUndo);
    if (!status) return std::move(status).take_error();
    {
      auto lease = sql_.prepare("UPDATE runs SET status = ?3, reason = coalesce(?2, reason) WHERE id = ?1");
      if (!lease) return std::move(lease).take_error();
      Statement& stmt = **lease;
      stmt.bind(1, run_id).bind(2, reason).bind(3, to_string(*status));
      if (auto st = stmt.run(); !st) return st;
    }
    if (auto st = ledger_.mark_reverted(run_id, now); !st) {
      // A run older than the window can outlive its ledger row (a long historyLimit); its
      // undo is new evidence, so the row comes back.
      if (st.error().code != ErrorCode::kNotFound) return st;
      auto checks = count_checks(sql_, run_id);
      if (!checks) return std::move(checks).take_error();
      LedgerRow row{run_id, run->automation_id, run->revision, run->level, run->started_at,
                    run->finished_at.value_or(now), *status, run->supervised,
                    checks->passed, checks->failed, now};
      if (auto appended = ledger_.append(row); !appended) return appended;
    }
    if (demotes_unattended(*status)) {
      auto demotion = demote_from_unattended(sql_, run->automation_id, now);
      if (!demotion) return std::move(demotion).take_error();
      demoted = *demotion;
    }
    return ok_status();
  });
  if (!result) return std::move(result).take_error();
  auto run = load_run(sql_, run_id);
  if (!run) return std::move(run).take_error();
  return FinishedRun{std::move(run).value(), demoted};
}

Result<std::int64_t> RunStore::mark_interrupted_runs_failed(const std::map<std::int64_t, std::string>& notes) {
  const std::int64_t now = clock_.unix_seconds();
  std::int64_t count = 0;
  auto result = db_.transaction([&]() -> Status {
    std::vector<std::int64_t> ids;
    {
      auto lease = sql_.prepare("SELECT id FROM runs WHERE status IN (" + active_statuses() + ") ORDER BY id");
      if (!lease) return std::move(lease).take_error();
      Statement& stmt = **lease;
      auto read = stmt.each_row([&ids](Statement& row) {
        ids.push_back(row.column_int64(0));
        return ok_status();
      });
      if (!read) return read;
    }
    for (std::int64_t id : ids) {
      std::string reason(kInterruptedReason);
      if (const auto note = notes.find(id); note != notes.end()) reason += "; " + note->second;
      if (auto ended = end_active_run(sql_, ledger_, id, RunEvent::kDaemonRestart, reason, now); !ended) {
        return std::move(ended).take_error();
      }
    }
    count = static_cast<std::int64_t>(ids.size());
    return ok_status();
  });
  if (!result) return std::move(result).take_error();
  return count;
}

Result<RunRecord> RunStore::get(std::int64_t run_id) const { return load_run(sql_, run_id); }

Result<RunDetail> RunStore::detail(std::int64_t run_id) const {
  auto run = load_run(sql_, run_id);
  if (!run) return std::move(run).take_error();
  RunDetail detail{std::move(run).value(), {}, {}};
  {
    auto lease = sql_.prepare(
        "SELECT seq, phase, type, name, status, delivery, error_code, reason, duration_ms, output, "
        "output_truncated FROM run_steps WHERE run_id = ?1 ORDER BY seq");
    if (!lease) return std::move(lease).take_error();
    Statement& steps = **lease;
    steps.bind(1, run_id);
    auto read = steps.each_row([&detail](Statement& row) {
      StepRecord step;
      step.seq = static_cast<int>(row.column_int64(0));
      step.phase = row.column_text(1);
      step.type = row.column_text(2);
      step.name = optional_text(row, 3);
      step.status = row.column_text(4);
      step.delivery = optional_text(row, 5);
      step.error_code = optional_text(row, 6);
      step.reason = optional_text(row, 7);
      step.duration_ms = row.column_int64(8);
      step.output = row.column_text(9);
      step.output_truncated = row.column_int64(10) != 0;
      detail.steps.push_back(std::move(step));
      return ok_status();
    });
    if (!read) return std::move(read).take_error();
  }
  auto lease = sql_.prepare("SELECT seq, passed FROM checks WHERE run_id = ?1 ORDER BY seq");
  if (!lease) return std::move(lease).take_error();
  Statement& checks = **lease;
  checks.bind(1, run_id);
  auto read = checks.each_row([&detail](Statement& row) {
    detail.checks.push_back({static_cast<int>(row.column_int64(0)), row.column_int64(1) != 0});
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  for (auto& step : detail.steps) {
    for (const auto& check : detail.checks) {
      if (check.seq == step.seq) step.check_passed = check.passed;
    }
  }
  return detail;
}

Result<RunPage> RunStore::list(std::int64_t automation_id, const RunFilter& filter) const {
  if (filter.page < 1 || filter.page_size < 1 || filter.page_size > 1000) {
    return make_error(ErrorCode::kInvalidArgs, "page starts at 1 and a page holds 1 to 1000 runs",
                      {{"page", filter.page}, {"page_size", filter.page_size}});
  }
  {
    auto lease = sql_.prepare("SELECT 1 FROM automations WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& exists = **lease;
    exists.bind(1, automation_id);
    auto found = exists.step();
    if (!found) return std::move(found).take_error();
    if (!*found) return automation_not_found(automation_id);
  }

  RunPage page;
  page.page = filter.page;
  page.page_size = filter.page_size;
  {
    auto lease = sql_.prepare(
        "SELECT count(*) FROM runs WHERE automation_id = ?1 AND (?2 IS NULL OR status = ?2)");
    if (!lease) return std::move(lease).take_error();
    Statement& total = **lease;
    total.bind(1, automation_id);
    bind_status_filter(total, filter);
    if (auto row = total.step(); !row) return std::move(row).take_error();
    page.total = total.column_int64(0);
  }
  auto lease = sql_.prepare(select_runs(
      "WHERE automation_id = ?1 AND (?2 IS NULL OR status = ?2) ORDER BY id DESC LIMIT ?3 OFFSET ?4"));
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  bind_status_filter(stmt, filter);
  stmt.bind(1, automation_id)
      .bind(3, static_cast<std::int64_t>(filter.page_size))
      .bind(4, static_cast<std::int64_t>(filter.page - 1) * filter.page_size);
  auto runs = read_runs(stmt);
  if (!runs) return std::move(runs).take_error();
  page.runs = std::move(runs).value();
  return page;
}

Result<std::vector<RunRecord>> RunStore::active() const {
  auto lease = sql_.prepare(select_runs("WHERE status IN (" + active_statuses() + ") ORDER BY id"));
  if (!lease) return std::move(lease).take_error();
  return read_runs(**lease);
}

Result<std::int64_t> RunStore::newest_id() const {
  auto lease = sql_.prepare("SELECT coalesce(max(id), 0) FROM runs");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  auto row = stmt.step();
  if (!row) return std::move(row).take_error();
  return stmt.column_int64(0);
}

}  // namespace companyos::store
