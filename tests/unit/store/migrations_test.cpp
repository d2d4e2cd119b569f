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
  for (const char* table : {"settings", "automations", "revisions", "runs", "run_steps", "checks", "audit"}) {
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

}  // namespace
}  // namespace companyos::store
