#include "store/migrations.h"

#include <gtest/gtest.h>

#include "store/database.h"
#include "temp_dir.h"

namespace companyos::store {
namespace {

std::int64_t count_tables(Database& db) {
  auto stmt = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'");
  EXPECT_TRUE(stmt.ok());
  EXPECT_TRUE(*stmt->step());
  return stmt->column_int64(0);
}

TEST(Migrations, OpenAppliesAllAndReopeningChangesNothing) {
  testing::TempDir dir;
  const std::string path = dir.file("db");
  std::int64_t tables = 0;
  {
    auto db = Database::open(path);
    ASSERT_TRUE(db.ok()) << db.error().message;
    EXPECT_EQ(db->schema_version(), builtin_migrations().back().version);
    tables = count_tables(*db);
    EXPECT_GE(tables, 7);
  }
  auto again = Database::open(path);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->schema_version(), builtin_migrations().back().version);
  EXPECT_EQ(count_tables(*again), tables);
  // Applying explicitly once more is still a no-op.
  EXPECT_TRUE(apply_migrations(*again).ok());
  EXPECT_EQ(count_tables(*again), tables);
}

TEST(Migrations, VersionsAreStrictlyIncreasing) {
  int previous = 0;
  for (const auto& m : builtin_migrations()) {
    EXPECT_GT(m.version, previous);
    previous = m.version;
  }
}

TEST(Migrations, ExpectedTablesExist) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  for (const char* table : {"settings", "automations", "revisions", "runs", "run_steps", "checks", "audit",
                            "run_ledger", "run_undo", "id_high_water"}) {
    auto stmt = db->prepare(std::string("SELECT count(*) FROM ") + table);
    EXPECT_TRUE(stmt.ok()) << table;
  }
}

TEST(Migrations, AFailingMigrationRollsBackAndKeepsTheVersion) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  const int before = db->schema_version();
  const Migration broken[] = {
      {before + 1, "half applied", "CREATE TABLE half (x INTEGER); CREATE TABLE half (y INTEGER);"},
  };
  auto st = apply_migrations(*db, broken);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("half applied"), std::string::npos);
  EXPECT_EQ(db->schema_version(), before);
  EXPECT_FALSE(db->prepare("SELECT * FROM half").ok());
}

TEST(Migrations, RunStatusesAreTheDesignsClosedSet) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("INSERT INTO automations (id, name, created_at, updated_at) VALUES (1, 'a', 0, 0)").ok());
  for (const char* status : {"running", "waiting", "succeeded", "failed", "blocked", "skipped", "stopped", "reverted"}) {
    EXPECT_TRUE(db->exec(std::string("INSERT INTO runs (automation_id, revision, status, level, started_at) "
                                     "VALUES (1, 1, '") + status + "', 3, 0)").ok()) << status;
  }
  EXPECT_FALSE(db->exec("INSERT INTO runs (automation_id, revision, status, level, started_at) "
                        "VALUES (1, 1, 'done', 3, 0)").ok());
  EXPECT_FALSE(db->exec("INSERT INTO runs (automation_id, revision, status, level, started_at) "
                        "VALUES (99, 1, 'failed', 3, 0)").ok()) << "foreign keys must be enforced";
}

// A database written by a version-1 daemon, opened by this one.
TEST(Migrations, VersionOneDatabaseUpgradesAndKeepsItsRows) {
  testing::TempDir dir;
  const std::string path = dir.file("v1.db");
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    std::unique_ptr<sqlite3, SqliteCloser> v1(raw);
    const std::string sql = std::string(builtin_migrations()[0].sql) +
        "PRAGMA user_version = 1;"
        "INSERT INTO settings VALUES ('max_level', '4', 5);"
        "INSERT INTO automations (id, name, enabled, level, current_revision, created_at, updated_at) "
        "  VALUES (7, 'backup', 0, 3, 2, 10, 20);"
        "INSERT INTO revisions VALUES (7, 1, '{\"actions\":[]}', 10), (7, 2, '{\"actions\":[1]}', 20);"
        "INSERT INTO runs (id, automation_id, revision, status, level, supervised, started_at, finished_at, reason) "
        "  VALUES (40, 7, 2, 'succeeded', 3, 1, 30, 31, NULL), (41, 7, 2, 'running', 3, 1, 32, NULL, NULL);"
        "INSERT INTO run_steps (run_id, seq, phase, type, status, output, duration_ms) "
        "  VALUES (40, 0, 'action', 'command', 'ok', 'out', 5);"
        "INSERT INTO checks VALUES (40, 1, 1);"
        "INSERT INTO audit (at, method, outcome, duration_ms) VALUES (50, 'click', 'refused', 1);";
    ASSERT_EQ(sqlite3_exec(v1.get(), sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(v1.get());
  }
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().message;
  EXPECT_EQ(db->schema_version(), builtin_migrations().back().version);
  auto one = [&](const std::string& sql) -> std::string {
    auto stmt = db->prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql;
    if (!stmt.ok()) return {};
    auto row = stmt->step();
    EXPECT_TRUE(row.ok() && *row) << sql;
    return stmt->column_text(0);
  };
  EXPECT_EQ(one("SELECT value FROM settings WHERE key = 'max_level'"), "4");
  EXPECT_EQ(one("SELECT name || ',' || enabled || ',' || level || ',' || current_revision || ',' || "
                "history_limit FROM automations WHERE id = 7"),
            "backup,0,3,2,30");
  EXPECT_EQ(one("SELECT group_concat(definition, '|') FROM revisions WHERE automation_id = 7"),
            "{\"actions\":[]}|{\"actions\":[1]}");
  EXPECT_EQ(one("SELECT group_concat(id || ':' || status || ':' || started_by || ':' || step_count, ',') "
                "FROM runs ORDER BY id"),
            "40:succeeded:person:0,41:running:person:0");
  EXPECT_EQ(one("SELECT output || ':' || output_truncated FROM run_steps WHERE run_id = 40"), "out:0");
  EXPECT_EQ(one("SELECT count(*) FROM checks"), "1");
  EXPECT_EQ(one("SELECT count(*) FROM audit"), "1");
  EXPECT_EQ(one("SELECT count(*) FROM run_ledger"), "0");
  EXPECT_EQ(one("SELECT last_id FROM id_high_water WHERE name = 'runs'"), "41")
      << "version 5 starts the high-water mark at the highest run id there was";
  // The new columns are constrained like the old ones.
  EXPECT_FALSE(db->exec("UPDATE automations SET history_limit = 0").ok());
  EXPECT_FALSE(db->exec("INSERT INTO run_ledger (run_id, automation_id, revision, level, started_at, "
                        "finished_at, status, supervised) VALUES (1, 7, 1, 3, 0, 0, 'running', 0)").ok())
      << "the ledger holds finished runs only";
  // Version 4 rebuilt runs: an agent may start one, the other values are still refused,
  // the audit's old rows were a person's, and the steps still belong to their run (deleting
  // the run deletes them, as the foreign key says).
  EXPECT_TRUE(db->exec("UPDATE runs SET started_by = 'agent' WHERE id = 41").ok());
  EXPECT_FALSE(db->exec("UPDATE runs SET started_by = 'robot' WHERE id = 41").ok());
  EXPECT_EQ(one("SELECT origin FROM audit"), "person");
  EXPECT_FALSE(db->exec("UPDATE audit SET origin = 'robot'").ok());
  EXPECT_EQ(one("SELECT count(*) FROM pragma_foreign_key_list('run_steps') WHERE \"table\" = 'runs'"), "1");
  ASSERT_TRUE(db->exec("DELETE FROM runs WHERE id = 40").ok());
  EXPECT_EQ(one("SELECT count(*) FROM run_steps") + one("SELECT count(*) FROM checks"), "00");
  EXPECT_FALSE(db->exec("INSERT INTO run_steps (run_id, seq, phase, type, status) VALUES (999, 1, 'action', 'x', 'ok')")
                   .ok())
      << "foreign keys are on again after the migrations";
}

}  // namespace
}  // namespace companyos::store
