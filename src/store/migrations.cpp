#include "store/migrations.h"

#include <array>
#include <string>

#include "store/database.h"

namespace companyos::store {
namespace {

// Version 1: settings and audit (complete), and the automation tables that later work
// fills. Gate evidence lives in run_ledger so pruning run details never removes it.
constexpr std::string_view kV1 = R"sql(
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE automations (
  id               INTEGER PRIMARY KEY,
  name             TEXT NOT NULL UNIQUE,
  enabled          INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  level            INTEGER NOT NULL DEFAULT 1 CHECK (level BETWEEN 1 AND 4),
  current_revision INTEGER NOT NULL DEFAULT 1,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE TABLE revisions (
  automation_id INTEGER NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
  revision      INTEGER NOT NULL,
  definition    TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (automation_id, revision)
);
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY,
  automation_id INTEGER NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
  revision      INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('running', 'waiting', 'succeeded', 'failed',
                                                'blocked', 'skipped', 'stopped', 'reverted')),
  level         INTEGER NOT NULL,
  supervised    INTEGER NOT NULL DEFAULT 0 CHECK (supervised IN (0, 1)),
  started_at    INTEGER NOT NULL,
  finished_at   INTEGER,
  reason        TEXT
);
CREATE INDEX runs_by_automation ON runs (automation_id, started_at);
CREATE TABLE run_steps (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  phase       TEXT NOT NULL CHECK (phase IN ('precondition', 'action', 'post')),
  type        TEXT NOT NULL,
  status      TEXT NOT NULL,
  delivery    TEXT,
  error_code  TEXT,
  reason      TEXT,
  output      TEXT,
  duration_ms INTEGER,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE checks (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq    INTEGER NOT NULL,
  passed INTEGER NOT NULL CHECK (passed IN (0, 1)),
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE audit (
  id          INTEGER PRIMARY KEY,
  at          INTEGER NOT NULL,
  method      TEXT NOT NULL,
  app         TEXT,
  target_role TEXT,
  outcome     TEXT NOT NULL,
  error_code  TEXT,
  duration_ms INTEGER NOT NULL
);
)sql";

constexpr std::array<Migration, 1> kMigrations{{
    {1, "settings, automations, revisions, runs, steps, checks, audit", kV1},
}};

}  // namespace

std::span<const Migration> builtin_migrations() { return kMigrations; }

Status apply_migrations(Database& db, std::span<const Migration> migrations) {
  for (const Migration& migration : migrations) {
    if (migration.version <= db.schema_version()) continue;
    auto status = db.transaction([&]() -> Status {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      if (migration.version <= db.schema_version()) return ok_status();
      if (auto st = db.exec(migration.sql); !st) return st;
      return db.exec("PRAGMA user_version = " + std::to_string(migration.version));
    });
    if (!status) {
      Error error = std::move(status).take_error();
      error.message = "migration " + std::to_string(migration.version) + " (" +
                      std::string(migration.name) + ") failed: " + error.message;
      return error;
    }
  }
  return ok_status();
}

}  // namespace companyos::store
