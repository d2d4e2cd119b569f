#include "store/audit.h"

#include "store/database.h"

namespace companyos::store {

Result<std::int64_t> AuditLog::open(const AuditRecord& r) {
  auto stmt = db_.prepare(
      "INSERT INTO audit (at, method, app, target_role, outcome, error_code, duration_ms, origin) "
      "VALUES (?1, ?2, ?3, ?4, ?5, NULL, 0, ?6)");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, clock_.unix_seconds())
      .bind(2, std::string_view(r.method))
      .bind(3, r.app)
      .bind(4, r.target_role)
      .bind(5, kPendingOutcome)
      .bind(6, protocol::to_string(r.origin));
  if (auto st = stmt->run(); !st) return std::move(st).take_error();
  return static_cast<std::int64_t>(sqlite3_last_insert_rowid(db_.handle()));
}

Status AuditLog::complete(std::int64_t id, const AuditRecord& r) {
  auto stmt = db_.prepare(
      "UPDATE audit SET app = coalesce(app, ?2), target_role = ?3, outcome = ?4, error_code = ?5, "
      "duration_ms = ?6 WHERE id = ?1");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, id)
      .bind(2, r.app)
      .bind(3, r.target_role)
      .bind(4, std::string_view(r.outcome))
      .bind(5, r.error_code)
      .bind(6, r.duration_ms);
  return stmt->run();
}

Result<nlohmann::json> AuditLog::recent(int limit) const {
  auto stmt = db_.prepare(
      "SELECT at, method, app, target_role, outcome, error_code, duration_ms, origin FROM audit "
      "ORDER BY id DESC LIMIT ?1");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, static_cast<std::int64_t>(limit));
  nlohmann::json rows = nlohmann::json::array();
  auto read = stmt->each_row([&rows](Statement& row) {
    auto text_or_null = [&row](int i) {
      return row.column_is_null(i) ? nlohmann::json(nullptr) : nlohmann::json(row.column_text(i));
    };
    rows.push_back({{"at", row.column_int64(0)},
                    {"method", row.column_text(1)},
                    {"app", text_or_null(2)},
                    {"target_role", text_or_null(3)},
                    {"outcome", row.column_text(4)},
                    {"error_code", text_or_null(5)},
                    {"duration_ms", row.column_int64(6)},
                    {"origin", row.column_text(7)}});
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return rows;
}

}  // namespace companyos::store
