#include "store/retention.h"

#include <string>
#include <vector>

#include "store/database.h"
#include "store/run_ledger.h"
#include "store/run_status.h"
#include "store/statement_cache.h"

namespace companyos::store {
namespace {

Result<std::int64_t> run_counting_changes(Database& db, Statement& stmt) {
  if (auto st = stmt.run(); !st) return std::move(st).take_error();
  return static_cast<std::int64_t>(sqlite3_changes(db.handle()));
}

}  // namespace

Result<std::int64_t> prune_run_details(StatementCache& sql, std::int64_t automation_id) {
  // A skipped trigger can finish while an older run is still active, so "latest" is by
  // finish time; the id breaks ties within one second.
  static const std::string kActive = sql_status_list(is_active);
  auto lease = sql.prepare(
      "DELETE FROM runs WHERE automation_id = ?1 AND status NOT IN (" + kActive + ") "
      "AND id NOT IN (SELECT id FROM runs WHERE automation_id = ?1 "
      "               AND status NOT IN (" + kActive + ") "
      "               ORDER BY finished_at DESC, id DESC "
      "               LIMIT (SELECT history_limit FROM automations WHERE id = ?1))");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, automation_id);
  return run_counting_changes(sql.database(), stmt);
}

Result<std::int64_t> prune_ledger(StatementCache& sql, std::int64_t automation_id, std::int64_t now) {
  // "Older than the window" is the complement of in_gate_window() minus its boundary: a row
  // exactly 14 days old is kept one more second.
  static const std::string kExecuted = sql_status_list(is_executed_status);
  auto lease = sql.prepare(
      "DELETE FROM run_ledger WHERE automation_id = ?1 "
      "AND max(finished_at, coalesce(reverted_at, finished_at)) < ?2 "
      "AND NOT (supervised = 1 AND status IN (" + kExecuted + ") "
      "         AND revision = (SELECT current_revision FROM automations WHERE id = ?1))");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, automation_id).bind(2, now - kGateWindowSeconds);
  return run_counting_changes(sql.database(), stmt);
}

Result<PruneCounts> Retention::prune_all() {
  PruneCounts counts;
  const std::int64_t now = clock_.unix_seconds();
  StatementCache sql(db_);
  auto status = db_.transaction([&]() -> Status {
    std::vector<std::int64_t> automation_ids;
    {
      auto ids = db_.prepare("SELECT id FROM automations ORDER BY id");
      if (!ids) return std::move(ids).take_error();
      auto read = ids->each_row([&automation_ids](Statement& row) {
        automation_ids.push_back(row.column_int64(0));
        return ok_status();
      });
      if (!read) return read;
    }
    for (std::int64_t id : automation_ids) {
      auto runs = prune_run_details(sql, id);
      if (!runs) return std::move(runs).take_error();
      auto ledger = prune_ledger(sql, id, now);
      if (!ledger) return std::move(ledger).take_error();
      counts.runs += *runs;
      counts.ledger_rows += *ledger;
    }
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  return counts;
}

}  // namespace companyos::store
