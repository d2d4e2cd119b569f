#include "store/automation_store.h"

#include <nlohmann/json.hpp>

#include "store/database.h"
#include "store/retention.h"

namespace companyos::store {
namespace {

constexpr std::string_view kSelect =
    "SELECT a.id, a.name, a.enabled, a.level, a.current_revision, a.history_limit, "
    "r.definition, a.created_at, a.updated_at, "
    "l.id, l.status, l.started_at, l.finished_at "
    "FROM automations a "
    "JOIN revisions r ON r.automation_id = a.id AND r.revision = a.current_revision "
    "LEFT JOIN runs l ON l.id = (SELECT max(id) FROM runs WHERE automation_id = a.id) ";

Result<AutomationRecord> read_record(const Statement& stmt) {
  AutomationRecord record;
  record.id = stmt.column_int64(0);
  record.name = stmt.column_text(1);
  record.enabled = stmt.column_int64(2) != 0;
  record.level = static_cast<int>(stmt.column_int64(3));
  record.revision = stmt.column_int64(4);
  record.history_limit = static_cast<int>(stmt.column_int64(5));
  record.definition = stmt.column_text(6);
  record.created_at = stmt.column_int64(7);
  record.updated_at = stmt.column_int64(8);
  if (!stmt.column_is_null(9)) {
    auto status = stored_run_status(stmt.column_text(10));
    if (!status) return std::move(status).take_error();
    LastRun last{stmt.column_int64(9), *status, stmt.column_int64(11), std::nullopt};
    if (!stmt.column_is_null(12)) last.finished_at = stmt.column_int64(12);
    record.last_run = std::move(last);
  }
  return record;
}

Error not_found(std::int64_t id) {
  return make_error(ErrorCode::kNotFound, "no automation with id " + std::to_string(id),
                    {{"id", id}}, "list them with: companyos automation list");
}

Result<AutomationRecord> load(StatementCache& sql, std::int64_t id) {
  auto lease = sql.prepare(std::string(kSelect) + "WHERE a.id = ?1");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, id);
  auto found = stmt.step();
  if (!found) return std::move(found).take_error();
  if (!*found) return not_found(id);
  return read_record(stmt);
}

Result<nlohmann::json> parse_definition(const std::string& text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return make_error(ErrorCode::kInvalidArgs, "the definition must be a JSON object");
  }
  return parsed;
}

// Returns the parsed definition.
Result<nlohmann::json> check_fields(const AutomationFields& fields) {
  if (fields.name.empty()) {
    return make_error(ErrorCode::kInvalidArgs, "an automation needs a name");
  }
  if (fields.history_limit < 1 || fields.history_limit > 1000) {
    return make_error(ErrorCode::kInvalidArgs, "historyLimit must be from 1 to 1000",
                      {{"historyLimit", fields.history_limit}});
  }
  return parse_definition(fields.definition);
}

// Steps are what a revision versions; names, schedules and limits can change in place.
bool same_steps(const nlohmann::json& a, const nlohmann::json& b) {
  for (const char* key : {"preconditions", "actions", "postActions"}) {
    if (a.value(key, nlohmann::json()) != b.value(key, nlohmann::json())) return false;
  }
  return true;
}

Status check_name_free(Database& db, const std::string& name, std::int64_t except_id) {
  auto stmt = db.prepare("SELECT id FROM automations WHERE name = ?1 AND id != ?2");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, std::string_view(name)).bind(2, except_id);
  auto found = stmt->step();
  if (!found) return std::move(found).take_error();
  if (*found) {
    return make_error(ErrorCode::kConflict, "an automation named '" + name + "' already exists",
                      {{"name", name}, {"id", stmt->column_int64(0)}},
                      "choose another name, or update the existing one");
  }
  return ok_status();
}

Result<std::int64_t> count_rows(Database& db) {
  auto stmt = db.prepare("SELECT count(*) FROM automations");
  if (!stmt) return std::move(stmt).take_error();
  auto row = stmt->step();
  if (!row) return std::move(row).take_error();
  return stmt->column_int64(0);
}

Status insert_revision(Database& db, std::int64_t id, std::int64_t revision,
                       const std::string& definition, std::int64_t now) {
  auto stmt = db.prepare(
      "INSERT INTO revisions (automation_id, revision, definition, created_at) "
      "VALUES (?1, ?2, ?3, ?4)");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, id).bind(2, revision).bind(3, std::string_view(definition)).bind(4, now);
  return stmt->run();
}

}  // namespace

Result<bool> demote_from_unattended(StatementCache& sql, std::int64_t automation_id, std::int64_t now) {
  auto lease = sql.prepare("UPDATE automations SET level = 3, updated_at = ?2 WHERE id = ?1 AND level = 4");
  if (!lease) return std::move(lease).take_error();
  Statement& stmt = **lease;
  stmt.bind(1, automation_id).bind(2, now);
  if (auto st = stmt.run(); !st) return std::move(st).take_error();
  return sqlite3_changes(sql.database().handle()) > 0;
}

Result<AutomationRecord> AutomationStore::create(const AutomationFields& fields) {
  if (auto checked = check_fields(fields); !checked) return std::move(checked).take_error();
  const std::int64_t now = clock_.unix_seconds();
  std::int64_t id = 0;
  auto status = db_.transaction([&]() -> Status {
    auto existing = count_rows(db_);
    if (!existing) return std::move(existing).take_error();
    if (*existing >= kMaxAutomations) {
      return make_error(ErrorCode::kConflict,
                        "at most " + std::to_string(kMaxAutomations) + " automations can be stored",
                        {{"limit", kMaxAutomations}, {"count", *existing}},
                        "delete an automation you no longer need first");
    }
    if (auto st = check_name_free(db_, fields.name, 0); !st) return st;
    auto insert = db_.prepare(
        "INSERT INTO automations (name, enabled, level, current_revision, history_limit, "
        "created_at, updated_at) VALUES (?1, ?2, 1, 1, ?3, ?4, ?4)");
    if (!insert) return std::move(insert).take_error();
    insert->bind(1, std::string_view(fields.name))
        .bind(2, static_cast<std::int64_t>(fields.enabled ? 1 : 0))
        .bind(3, static_cast<std::int64_t>(fields.history_limit))
        .bind(4, now);
    if (auto st = insert->run(); !st) return st;
    id = sqlite3_last_insert_rowid(db_.handle());
    return insert_revision(db_, id, 1, fields.definition, now);
  });
  if (!status) return std::move(status).take_error();
  return load(sql_, id);
}

Result<UpdateOutcome> AutomationStore::update(std::int64_t id, const AutomationFields& fields) {
  auto checked = check_fields(fields);
  if (!checked) return std::move(checked).take_error();
  const nlohmann::json incoming = std::move(checked).value();
  const std::int64_t now = clock_.unix_seconds();
  UpdateOutcome outcome;
  auto status = db_.transaction([&]() -> Status {
    auto current = load(sql_, id);
    if (!current) return std::move(current).take_error();
    if (auto st = check_name_free(db_, fields.name, id); !st) return st;
    // A stored definition that no longer parses is treated as different steps.
    auto stored = parse_definition(current->definition);
    outcome.new_revision = !stored || !same_steps(*stored, incoming);
    std::int64_t revision = current->revision;
    if (outcome.new_revision) {
      revision += 1;
      if (auto st = insert_revision(db_, id, revision, fields.definition, now); !st) return st;
      auto demoted = demote_from_unattended(sql_, id, now);
      if (!demoted) return std::move(demoted).take_error();
      outcome.demoted = *demoted;
    } else {
      auto stmt = db_.prepare(
          "UPDATE revisions SET definition = ?3 WHERE automation_id = ?1 AND revision = ?2");
      if (!stmt) return std::move(stmt).take_error();
      stmt->bind(1, id).bind(2, revision).bind(3, std::string_view(fields.definition));
      if (auto st = stmt->run(); !st) return st;
    }
    auto stmt = db_.prepare(
        "UPDATE automations SET name = ?2, enabled = ?3, history_limit = ?4, "
        "current_revision = ?5, updated_at = ?6 WHERE id = ?1");
    if (!stmt) return std::move(stmt).take_error();
    stmt->bind(1, id)
        .bind(2, std::string_view(fields.name))
        .bind(3, static_cast<std::int64_t>(fields.enabled ? 1 : 0))
        .bind(4, static_cast<std::int64_t>(fields.history_limit))
        .bind(5, revision)
        .bind(6, now);
    if (auto st = stmt->run(); !st) return st;
    if (fields.history_limit < current->history_limit) {
      auto pruned = prune_run_details(sql_, id);
      if (!pruned) return std::move(pruned).take_error();
      outcome.pruned_runs = *pruned;
    }
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  auto record = load(sql_, id);
  if (!record) return std::move(record).take_error();
  outcome.automation = std::move(record).value();
  return outcome;
}

Result<AutomationRecord> AutomationStore::get(std::int64_t id) const { return load(sql_, id); }

Result<std::vector<AutomationRecord>> AutomationStore::list() const {
  auto stmt = db_.prepare(std::string(kSelect) + "ORDER BY a.id");
  if (!stmt) return std::move(stmt).take_error();
  std::vector<AutomationRecord> records;
  auto read = stmt->each_row([&records](Statement& row) -> Status {
    auto record = read_record(row);
    if (!record) return std::move(record).take_error();
    records.push_back(std::move(record).value());
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return records;
}

Status AutomationStore::remove(std::int64_t id) {
  return db_.transaction([&]() -> Status {
    auto active = db_.prepare("SELECT id FROM runs WHERE automation_id = ?1 AND status IN (" +
                              sql_status_list(is_active) + ")");
    if (!active) return std::move(active).take_error();
    active->bind(1, id);
    auto busy = active->step();
    if (!busy) return std::move(busy).take_error();
    if (*busy) {
      return make_error(ErrorCode::kConflict,
                        "automation " + std::to_string(id) + " has run " +
                            std::to_string(active->column_int64(0)) + " active",
                        {{"id", id}, {"run_id", active->column_int64(0)}},
                        "stop it first: companyos automation stop " + std::to_string(id));
    }
    auto stmt = db_.prepare("DELETE FROM automations WHERE id = ?1");
    if (!stmt) return std::move(stmt).take_error();
    stmt->bind(1, id);
    if (auto st = stmt->run(); !st) return st;
    if (sqlite3_changes(db_.handle()) == 0) return not_found(id);
    return ok_status();
  });
}

Result<AutomationRecord> AutomationStore::set_enabled(std::int64_t id, bool enabled) {
  auto status = db_.transaction([&]() -> Status {
    auto stmt = db_.prepare("UPDATE automations SET enabled = ?2, updated_at = ?3 WHERE id = ?1");
    if (!stmt) return std::move(stmt).take_error();
    stmt->bind(1, id).bind(2, static_cast<std::int64_t>(enabled ? 1 : 0)).bind(3, clock_.unix_seconds());
    if (auto st = stmt->run(); !st) return st;
    if (sqlite3_changes(db_.handle()) == 0) return not_found(id);
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  return load(sql_, id);
}

Result<std::int64_t> AutomationStore::disable_all() {
  std::int64_t changed = 0;
  auto status = db_.transaction([&]() -> Status {
    auto stmt = db_.prepare("UPDATE automations SET enabled = 0, updated_at = ?1 WHERE enabled = 1");
    if (!stmt) return std::move(stmt).take_error();
    stmt->bind(1, clock_.unix_seconds());
    if (auto st = stmt->run(); !st) return st;
    changed = sqlite3_changes(db_.handle());
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  return changed;
}

Result<AutomationRecord> AutomationStore::set_level(std::int64_t id, int level) {
  if (level == 5) {
    return make_error(ErrorCode::kInvalidArgs, "level 5 is not built", {{"level", level}});
  }
  if (level < 1 || level > 4) {
    return make_error(ErrorCode::kInvalidArgs, "a level is from 1 to 4", {{"level", level}});
  }
  auto status = db_.transaction([&]() -> Status {
    auto stmt = db_.prepare("UPDATE automations SET level = ?2, updated_at = ?3 WHERE id = ?1");
    if (!stmt) return std::move(stmt).take_error();
    stmt->bind(1, id).bind(2, static_cast<std::int64_t>(level)).bind(3, clock_.unix_seconds());
    if (auto st = stmt->run(); !st) return st;
    if (sqlite3_changes(db_.handle()) == 0) return not_found(id);
    return ok_status();
  });
  if (!status) return std::move(status).take_error();
  return load(sql_, id);
}

Result<std::int64_t> AutomationStore::count() const { return count_rows(db_); }

Result<std::vector<RevisionRecord>> AutomationStore::revisions(std::int64_t id) const {
  if (auto exists = load(sql_, id); !exists) return std::move(exists).take_error();
  auto stmt = db_.prepare(
      "SELECT revision, definition, created_at FROM revisions WHERE automation_id = ?1 "
      "ORDER BY revision");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, id);
  std::vector<RevisionRecord> records;
  auto read = stmt->each_row([&records](Statement& row) {
    records.push_back({row.column_int64(0), row.column_text(1), row.column_int64(2)});
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return records;
}

Result<RevisionRecord> AutomationStore::revision(std::int64_t id, std::int64_t revision) const {
  auto stmt = db_.prepare(
      "SELECT revision, definition, created_at FROM revisions "
      "WHERE automation_id = ?1 AND revision = ?2");
  if (!stmt) return std::move(stmt).take_error();
  stmt->bind(1, id).bind(2, revision);
  auto found = stmt->step();
  if (!found) return std::move(found).take_error();
  if (!*found) {
    return make_error(ErrorCode::kNotFound,
                      "automation " + std::to_string(id) + " has no revision " +
                          std::to_string(revision),
                      {{"id", id}, {"revision", revision}});
  }
  return RevisionRecord{stmt->column_int64(0), stmt->column_text(1), stmt->column_int64(2)};
}

}  // namespace companyos::store
