// RAII handle on one SQLite database in WAL mode with foreign keys on, plus prepared
// statements. Every fallible call returns Status/Result; nothing throws.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <sqlite3.h>

#include "companyos/result.h"

namespace companyos::store {

struct SqliteCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StatementFinalizer {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};

class Statement {
 public:
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view value);
  Statement& bind_null(int index);
  Statement& bind(int index, const std::optional<std::string>& value);

  // true while a row is available; false when done.
  Result<bool> step();
  // Steps through every row, calling ON_ROW with the statement at it: the first error, of a
  // step or of ON_ROW, ends the walk and is returned.
  Status each_row(const std::function<Status(Statement&)>& on_row);
  // Runs a statement that returns no rows to completion.
  Status run();
  Status reset();

  std::int64_t column_int64(int index) const;
  std::string column_text(int index) const;
  bool column_is_null(int index) const;

 private:
  std::unique_ptr<sqlite3_stmt, StatementFinalizer> stmt_;
};

class Database {
 public:
  // Opens (creating if needed) the file with mode 0600 in a 0700 directory and applies
  // every pending migration. ":memory:" opens a private in-memory database. A store that
  // exists but cannot be written is opened read-only (writable() false; every write is
  // PERM_DENIED store_read_only), unless it needs a migration, which is that error.
  static Result<Database> open(const std::string& path);

  Status exec(std::string_view sql);
  Result<Statement> prepare(std::string_view sql);

  // Runs body inside BEGIN IMMEDIATE … COMMIT; any error (or a failed body) rolls back.
  Status transaction(const std::function<Status()>& body);

  // Turns off SQLite's automatic WAL checkpoint on this connection, which otherwise runs
  // inside whichever commit crosses 1,000 WAL pages and stalls it (~2 ms): the owner calls
  // checkpoint() at a moment when nothing waits on the store.
  void defer_checkpoints();
  // Copies the WAL into the database as far as no reader holds it back (PASSIVE: never
  // waits for another connection).
  Status checkpoint();

  int schema_version() const;
  bool writable() const { return read_only_reason_.empty(); }
  // Why the store was opened read-only; empty when it is writable.
  const std::string& read_only_reason() const { return read_only_reason_; }
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_.get(); }

 private:
  Database(std::unique_ptr<sqlite3, SqliteCloser> db, std::string path)
      : db_(std::move(db)), path_(std::move(path)) {}
  static Result<Database> open_writable(const std::string& path);
  static Result<Database> open_read_only(const std::string& path, const std::string& why);

  std::unique_ptr<sqlite3, SqliteCloser> db_;
  std::string path_;
  std::string read_only_reason_;
};

// Whether path names one of the store's own files — the database at db_path, its -wal or
// its -shm — by device and inode where they exist (so no symlink, hard link or `..` slips
// by), else by name. Nothing in the daemon may open such a file: closing any descriptor of
// it drops every POSIX lock SQLite holds on it in the process (see Database::open).
bool is_store_file(const std::string& db_path, const std::string& path);

// INTERNAL with SQLite's message, or STORAGE_FULL (details.path, reason "disk_full",
// retry safe, a suggestion to free space) when the disk or the database is full.
Error sqlite_error(sqlite3* db, std::string_view what);
Error storage_full(sqlite3* db, std::string message);
// PERM_DENIED {reason: store_read_only, path} with what to do.
Error store_read_only(sqlite3* db, std::string message);

}  // namespace companyos::store
