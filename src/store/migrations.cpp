#include "store/migrations.h"

#include <algorithm>
#include <array>
#include <string>

#include "store/database.h"

namespace companyos::store {
namespace {

// Version 1: settings and audit (complete), and the automation tables that later work
// fills. Gate evidence lives in run_ledger (version 2) so pruning run details never removes it.
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

// Version 2: levelled automations. run_ledger is the promotion gate's evidence: one compact
// row per finished run with no foreign key to runs, so pruning a run's details keeps it.
// Run ids are chosen above every ledger row too, so a ledger row never names a newer run.
// run_undo holds what undo needs (the previous value, the declared undo command, the
// launched window) and goes with the run's details.
constexpr std::string_view kV2 = R"sql(
ALTER TABLE automations ADD COLUMN history_limit INTEGER NOT NULL DEFAULT 30
  CHECK (history_limit BETWEEN 1 AND 1000);
ALTER TABLE runs ADD COLUMN started_by TEXT NOT NULL DEFAULT 'person'
  CHECK (started_by IN ('person', 'schedule'));
ALTER TABLE runs ADD COLUMN approved_at INTEGER;
ALTER TABLE runs ADD COLUMN waiting_since INTEGER;
ALTER TABLE runs ADD COLUMN waiting_description TEXT;
ALTER TABLE runs ADD COLUMN step_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN output_bytes INTEGER NOT NULL DEFAULT 0;
CREATE INDEX runs_by_status ON runs (status);
ALTER TABLE run_steps ADD COLUMN name TEXT;
ALTER TABLE run_steps ADD COLUMN output_truncated INTEGER NOT NULL DEFAULT 0
  CHECK (output_truncated IN (0, 1));
CREATE TABLE run_undo (
  run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('restore_value', 'command', 'close_window')),
  previous_value TEXT,
  command        TEXT,
  window         TEXT,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE run_ledger (
  run_id        INTEGER PRIMARY KEY,
  automation_id INTEGER NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
  revision      INTEGER NOT NULL,
  level         INTEGER NOT NULL,
  started_at    INTEGER NOT NULL,
  finished_at   INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('succeeded', 'failed', 'blocked', 'skipped',
                                                'stopped', 'reverted')),
  supervised    INTEGER NOT NULL CHECK (supervised IN (0, 1)),
  checks_passed INTEGER NOT NULL DEFAULT 0,
  checks_failed INTEGER NOT NULL DEFAULT 0,
  reverted_at   INTEGER
);
CREATE INDEX run_ledger_evidence ON run_ledger (automation_id, revision, finished_at);
)sql";

// Version 3: an undo that failed part-way is retried; undone_at marks the inverses already
// taken back so the retry runs only the others.
constexpr std::string_view kV3 = R"sql(
ALTER TABLE run_undo ADD COLUMN undone_at INTEGER;
)sql";

// Version 4: a run may be started by an agent (MCP), and every audit row says who asked.
// SQLite cannot widen a CHECK in place, so runs is rebuilt as its documented procedure has
// it: foreign keys are off meanwhile (apply_migrations), so dropping the old table deletes
// none of its steps, checks or undo records, which name the new table by its name.
constexpr std::string_view kV4 = R"sql(
CREATE TABLE runs_v4 (
  id                  INTEGER PRIMARY KEY,
  automation_id       INTEGER NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
  revision            INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('running', 'waiting', 'succeeded', 'failed',
                                                      'blocked', 'skipped', 'stopped', 'reverted')),
  level               INTEGER NOT NULL,
  supervised          INTEGER NOT NULL DEFAULT 0 CHECK (supervised IN (0, 1)),
  started_at          INTEGER NOT NULL,
  finished_at         INTEGER,
  reason              TEXT,
  started_by          TEXT NOT NULL DEFAULT 'person' CHECK (started_by IN ('person', 'schedule', 'agent')),
  approved_at         INTEGER,
  waiting_since       INTEGER,
  waiting_description TEXT,
  step_count          INTEGER NOT NULL DEFAULT 0,
  output_bytes        INTEGER NOT NULL DEFAULT 0
);
INSERT INTO runs_v4 (id, automation_id, revision, status, level, supervised, started_at, finished_at,
                     reason, started_by, approved_at, waiting_since, waiting_description, step_count,
                     output_bytes)
  SELECT id, automation_id, revision, status, level, supervised, started_at, finished_at, reason,
         started_by, approved_at, waiting_since, waiting_description, step_count, output_bytes
  FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v4 RENAME TO runs;
CREATE INDEX runs_by_automation ON runs (automation_id, started_at);
CREATE INDEX runs_by_status ON runs (status);
ALTER TABLE audit ADD COLUMN origin TEXT NOT NULL DEFAULT 'person' CHECK (origin IN ('person', 'agent'));
)sql";

// Version 5: a run id is never given twice. Deleting an automation deletes its runs and
// ledger rows, and ids were one above what was left: a link, an audit row or a notification
// naming a deleted run then named a new one. The highest id ever given is kept here.
constexpr std::string_view kV5 = R"sql(
CREATE TABLE id_high_water (
  name    TEXT PRIMARY KEY,
  last_id INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO id_high_water (name, last_id)
  SELECT 'runs', max((SELECT coalesce(max(id), 0) FROM runs),
                     (SELECT coalesce(max(run_id), 0) FROM run_ledger));
)sql";

constexpr std::array<Migration, 5> kMigrations{{
    {1, "settings, automations, revisions, runs, steps, checks, audit", kV1},
    {2, "run ledger, undo records, history limit, run bookkeeping", kV2},
    {3, "undo progress", kV3},
    {4, "runs started by agents; who asked, in the audit", kV4},
    {5, "run ids never given twice", kV5},
}};

Status no_broken_foreign_keys(Database& db) {
  auto check = db.prepare("PRAGMA foreign_key_check");
  if (!check) return std::move(check).take_error();
  auto broken = check->step();
  if (!broken) return std::move(broken).take_error();
  if (*broken) {
    return make_error(ErrorCode::kInternal, "a row of " + check->column_text(0) + " references a missing " +
                                                check->column_text(2) + " row");
  }
  return ok_status();
}

}  // namespace

std::span<const Migration> builtin_migrations() { return kMigrations; }

Status apply_migrations(Database& db, std::span<const Migration> migrations) {
  // A migration may rebuild a table that others reference: with foreign keys on, dropping
  // the old one would delete every row that references it. They are off while migrations
  // run (the pragma is ignored inside a transaction, so it is set around them), and each
  // migration's transaction checks them before it commits.
  const bool pending = std::any_of(migrations.begin(), migrations.end(),
                                   [&](const Migration& m) { return m.version > db.schema_version(); });
  if (!pending) return ok_status();
  if (auto st = db.exec("PRAGMA foreign_keys = OFF"); !st) return st;
  struct ForeignKeysBackOn {
    Database& db;
    ~ForeignKeysBackOn() { (void)db.exec("PRAGMA foreign_keys = ON"); }
  } back_on{db};
  for (const Migration& migration : migrations) {
    if (migration.version <= db.schema_version()) continue;
    auto status = db.transaction([&]() -> Status {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      if (migration.version <= db.schema_version()) return ok_status();
      if (auto st = db.exec(migration.sql); !st) return st;
      if (auto st = no_broken_foreign_keys(db); !st) return st;
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
