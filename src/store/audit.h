// The audit trail: one row per action — method, who asked (person or agent), app, target
// role, outcome, error code and duration. Never typed text, values or command output: the record has no field for them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "companyos/protocol.h"
#include "companyos/result.h"
#include "core/clock.h"

namespace companyos::store {

class Database;

struct AuditRecord {
  std::string method;
  std::optional<std::string> app;
  std::optional<std::string> target_role;
  std::string outcome;  // a delivery outcome, or "refused" / "failed"
  std::optional<std::string> error_code;
  std::int64_t duration_ms = 0;
  protocol::Origin origin = protocol::Origin::kPerson;  // who asked: a person or an agent
};

// An action's row is opened before the action is attempted and completed with its outcome:
// an action whose row cannot be written (a full disk) is refused before anything happens,
// and a row left "pending" says an action was attempted whose outcome was never recorded.
inline constexpr std::string_view kPendingOutcome = "pending";

class AuditLog {
 public:
  AuditLog(Database& db, const Clock& clock) : db_(db), clock_(clock) {}
  // Writes the row with outcome "pending" (record.outcome is ignored); returns its id.
  Result<std::int64_t> open(const AuditRecord& record);
  // Fills in the outcome, error code, target role, app (when the request named none) and
  // duration of the row open() wrote.
  Status complete(std::int64_t id, const AuditRecord& record);
  // The newest rows first, at most `limit`.
  Result<nlohmann::json> recent(int limit) const;

 private:
  Database& db_;
  const Clock& clock_;
};

}  // namespace companyos::store
