#include "store/run_ledger.h"

#include "store/database.h"

namespace companyos::store {
namespace {

constexpr std::string_view kLedgerColumns =
    "run_id, automation_id, revision, level, started_at, finished_at, status, supervised, "
    "checks_passed, checks_failed, reverted_at";

Result<LedgerRow> read_row(const Statement& stmt) {
  auto status = stored_run_status(stmt.column_text(6));
  if (!status) return std::move(status).take_error();
  LedgerRow row;
  row.run_id = stmt.column_int64(0);
  row.automation_id = stmt.column_int64(1);
  row.revision = stmt.column_int64(2);
  row.level = static_cast<int>(stmt.column_int64(3));
  row.started_at = stmt.column_int64(4);
  row.finished_at = stmt.column_int64(5);
  row.status = *status;
  row.supervised = stmt.column_int64(7) != 0;
  row.checks_passed = stmt.column_int64(8);
  row.checks_failed = stmt.column_int64(9);
  if (!stmt.column_is_null(10)) row.reverted_at = stmt.column_int64(10);
  return row;
}

Result<std::vector<LedgerRow>> read_all(Statement& stmt) {
  std::vector<LedgerRow> rows;
  auto read = stmt.each_row([&rows](Statement& at) -> Status {
    auto row = read_row(at);
    if (!row) return std::move(row).take_error();
    rows.push_back(std::move(row).value());
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return rows;
}

}  // namespace

Status RunLedger::append(const LedgerRow& row) {
  auto lease = sql_.prepare(
      "INSERT INTO run_ledger (run_id, automation_id, revision, level, started_at, finished_at, "
      "status, supervised, checks_passed, checks_failed, reverted_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, row.run_id)
      .bind(2, row.automation_id)
      .bind(3, row.revision)
      .bind(4, static_cast<std::int64_t>(row.level))
      .bind(5, row.started_at)
      .bind(6, row.finished_at)
      .bind(7, to_string(row.status))
      .bind(8, static_cast<std::int64_t>(row.supervised ? 1 : 0))
      .bind(9, row.checks_passed)
      .bind(10, row.checks_failed);
  if (row.reverted_at) {
    stmt.bind(11, *row.reverted_at);
  } else {
    stmt.bind_null(11);
  }
  return stmt.run();
}

Status RunLedger::mark_reverted(std::int64_t run_id, std::int64_t at) {
  auto lease = sql_.prepare("UPDATE run_ledger SET status = ?3, reverted_at = ?2 WHERE run_id = ?1");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, run_id).bind(2, at).bind(3, to_string(RunStatus::kReverted));
  if (auto st = stmt.run(); !st) return st;
  if (sqlite3_changes(sql_.database().handle()) == 0) {
    return make_error(ErrorCode::kNotFound,
                      "run " + std::to_string(run_id) + " has no ledger row",
                      {{"run_id", run_id}});
  }
  return ok_status();
}

Result<std::vector<LedgerRow>> RunLedger::gate_evidence(std::int64_t automation_id,
                                                        std::int64_t now) const {
  std::int64_t current = 0;
  {
    auto lease = sql_.prepare("SELECT current_revision FROM automations WHERE id = ?1");
    if (!lease) return std::move(lease).take_error();
    Statement& revision = **lease;
    revision.bind(1, automation_id);
    auto found = revision.step();
    if (!found) return std::move(found).take_error();
    if (!*found) {
      return make_error(ErrorCode::kNotFound,
                        "no automation with id " + std::to_string(automation_id),
                        {{"id", automation_id}});
    }
    current = revision.column_int64(0);
  }

  // Mirrors in_gate_window() and is_executed_status(); the gate filters again, so this
  // only has to return a superset of what it counts.
  auto lease = sql_.prepare(
      "SELECT " + std::string(kLedgerColumns) +
      " FROM run_ledger WHERE automation_id = ?1 AND revision = ?2 AND ("
      "  coalesce(reverted_at, finished_at) > ?3 OR finished_at > ?3 OR"
      "  (supervised = 1 AND status IN (" + sql_status_list(is_executed_status) + ")))"
      " ORDER BY finished_at, run_id");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, automation_id).bind(2, current).bind(3, now - kGateWindowSeconds);
  return read_all(stmt);
}

Result<std::vector<LedgerRow>> RunLedger::rows(std::int64_t automation_id) const {
  auto lease = sql_.prepare("SELECT " + std::string(kLedgerColumns) +
                            " FROM run_ledger WHERE automation_id = ?1 ORDER BY finished_at, run_id");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, automation_id);
  return read_all(stmt);
}

}  // namespace companyos::store
