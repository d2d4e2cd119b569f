#include "store/database.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "temp_dir.h"

namespace companyos::store {
namespace {

mode_t mode_of(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(Database, CreatesPrivateFileAndDirectoryInWalMode) {
  testing::TempDir dir;
  const std::string path = dir.file("state/companyos/companyos.db");
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().message;
  EXPECT_EQ(mode_of(path), 0600U);
  EXPECT_EQ(mode_of(dir.file("state/companyos")), 0700U);
  auto stmt = db->prepare("PRAGMA journal_mode");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE(*stmt->step());
  EXPECT_EQ(stmt->column_text(0), "wal");
  auto fk = db->prepare("PRAGMA foreign_keys");
  ASSERT_TRUE(fk.ok());
  ASSERT_TRUE(*fk->step());
  EXPECT_EQ(fk->column_int64(0), 1);
}

TEST(Database, AnExistingFileIsMadePrivate) {
  testing::TempDir dir;
  const std::string path = dir.file("db");
  ASSERT_TRUE(Database::open(path).ok());
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  ASSERT_TRUE(Database::open(path).ok());
  EXPECT_EQ(mode_of(path), 0600U);
}

// A permissive umask (a user's shell, a test harness) must not leak into the store's
// mode, nor into the -wal and -shm files that hold the same data.
TEST(Database, TheStoreAndItsWalAreCreatedPrivateUnderAPermissiveUmask) {
  testing::TempDir dir;
  const std::string path = dir.file("store.db");
  const mode_t previous = ::umask(022);
  auto db = Database::open(path);
  ::umask(previous);
  ASSERT_TRUE(db.ok()) << db.error().message;
  ASSERT_TRUE(db->exec("INSERT INTO settings VALUES ('max_level', '2', 0)").ok());
  EXPECT_EQ(mode_of(path), 0600U);
  EXPECT_EQ(mode_of(path + "-wal"), 0600U);
  EXPECT_EQ(mode_of(path + "-shm"), 0600U);
}

// What another process sees of our locks: an outside client (a fresh process, not a fork,
// which would share this process's lock bookkeeping) reads the store and closes it. It may
// checkpoint and delete the WAL only when it finds no other connection, and this process
// still has two open.
bool outside_client_deleted_the_wal(const std::string& path) {
  const pid_t child = ::fork();
  if (child == 0) {
    const char* script =
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('SELECT count(*) FROM sqlite_master').fetchall()\n"
        "c.close()\n";
    ::execl(PYTHON3_PATH, PYTHON3_PATH, "-c", script, path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  EXPECT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the outside client could not read";
  struct stat st{};
  return ::stat((path + "-wal").c_str(), &st) != 0;
}

TEST(Database, OpeningTheStoreAgainKeepsTheLocksOfTheConnectionAlreadyOpen) {
  testing::TempDir dir;
  const std::string path = dir.file("store.db");
  auto first = Database::open(path);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(first->exec("INSERT INTO settings VALUES ('max_level', '2', 0)").ok());
  auto second = Database::open(path);  // the daemon opens one for requests, one for runs
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_FALSE(outside_client_deleted_the_wal(path))
      << "the second open dropped the first connection's locks";
  ASSERT_TRUE(first->exec("INSERT INTO settings VALUES ('unattended', 'true', 0)").ok());
  auto count = second->prepare("SELECT count(*) FROM settings");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE(*count->step());
  EXPECT_EQ(count->column_int64(0), 2);
}

TEST(Database, UnopenablePathIsAnError) {
  auto db = Database::open("/proc/companyos/cannot/be/here.db");
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().code, ErrorCode::kInternal);
  EXPECT_NE(db.error().message.find("/proc/companyos"), std::string::npos);
}

TEST(Database, FailedTransactionLeavesNothingBehind) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  auto st = db->transaction([&]() -> Status {
    if (auto s = db->exec("INSERT INTO settings VALUES ('max_level', '4', 0)"); !s) return s;
    return make_error(ErrorCode::kInternal, "second write failed");
  });
  EXPECT_FALSE(st.ok());
  auto count = db->prepare("SELECT count(*) FROM settings");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE(*count->step());
  EXPECT_EQ(count->column_int64(0), 0);
}

TEST(Database, BadSqlIsAnErrorNotACrash) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  EXPECT_FALSE(db->exec("SELEKT nothing").ok());
  EXPECT_FALSE(db->prepare("SELECT * FROM no_such_table").ok());
}

}  // namespace
}  // namespace companyos::store

namespace companyos::store {
namespace {

std::uintmax_t size_of(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return static_cast<std::uintmax_t>(st.st_size);
}

// The runner's connection defers SQLite's automatic checkpoint (every 1,000 WAL pages, inside
// whichever commit crosses them) to moments of its choosing: the rows stay in the WAL until
// checkpoint() copies them into the database file.
TEST(Database, DeferredCheckpointsWaitForCheckpoint) {
  testing::TempDir dir;
  const std::string path = dir.file("store.db");
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok());
  db->defer_checkpoints();
  ASSERT_TRUE(db->exec("CREATE TABLE filler (x TEXT)").ok());
  const auto before = size_of(path);
  auto insert = db->prepare("INSERT INTO filler VALUES (?1)");
  ASSERT_TRUE(insert.ok());
  const std::string row(1024, 'x');
  for (int i = 0; i < 1500; ++i) {  // one commit, and at least one WAL page, each
    ASSERT_TRUE(insert->bind(1, std::string_view(row)).run().ok());
    ASSERT_TRUE(insert->reset().ok());
  }
  EXPECT_EQ(size_of(path), before) << "no automatic checkpoint copied pages into the file";
  ASSERT_TRUE(db->checkpoint().ok());
  EXPECT_GE(size_of(path), before + 1500 * 1024) << "checkpoint() copied the rows";
}

TEST(Database, TheStoresOwnFilesAreKnownByInodeAndName) {
  testing::TempDir dir;
  const std::string path = dir.file("companyos.db");
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().message;
  ASSERT_TRUE(db->exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)").ok());  // the WAL exists now
  ASSERT_EQ(::symlink(path.c_str(), dir.file("alias.db").c_str()), 0);
  ASSERT_EQ(::link(path.c_str(), dir.file("hard.db").c_str()), 0);
  { std::ofstream(dir.file("other.db")) << "x"; }
  struct Case {
    std::string path;
    bool own;
  };
  const Case cases[] = {
      {path, true},
      {path + "-wal", true},
      {path + "-shm", true},
      {path + "-journal", true},  // absent: known by name
      {dir.file("alias.db"), true},
      {dir.file("hard.db"), true},
      {dir.file("sub/../companyos.db"), true},
      {dir.file("./companyos.db"), true},
      {dir.file("other.db"), false},
      {dir.file("companyos.db.bak"), false},
      {dir.file("absent"), false},
      {"", false},
  };
  for (const Case& c : cases) EXPECT_EQ(is_store_file(path, c.path), c.own) << c.path;
  EXPECT_FALSE(is_store_file(":memory:", path));
  EXPECT_FALSE(is_store_file("", path));
}

}  // namespace
}  // namespace companyos::store
