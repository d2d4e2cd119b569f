#include "store/database.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "store/migrations.h"

namespace companyos::store {
namespace {

// The directory is created private; an existing one is left as the user set it.
Status ensure_parent_directory(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return ok_status();
  std::error_code ec;
  if (std::filesystem::exists(parent, ec)) return ok_status();
  std::filesystem::create_directories(parent, ec);
  if (ec) {
    return make_error(ErrorCode::kInternal, "cannot create store directory " + parent.string() +
                                                ": " + ec.message());
  }
  ::chmod(parent.c_str(), 0700);
  return ok_status();
}

// SQLite creates the database with 0644 less the umask, and its -wal and -shm with the
// database's mode; so a private umask while it opens makes all three private from birth.
// The file must never be opened here instead: closing any descriptor of it drops every
// POSIX lock SQLite holds on it in this process, and an outside client that then finds
// it unlocked checkpoints and deletes the WAL that still holds our confirmed writes.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(previous_); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

 private:
  mode_t previous_;
};

// A file left from before (or made by hand) keeps its mode across opens; chmod on the
// path tightens it without opening it.
Status make_private(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return ok_status();
    return make_error(ErrorCode::kInternal,
                      "cannot inspect store file " + path + ": " + std::strerror(errno));
  }
  if ((st.st_mode & 07777) == 0600) return ok_status();
  if (::chmod(path.c_str(), 0600) != 0) {
    return make_error(ErrorCode::kInternal,
                      "cannot make store private " + path + ": " + std::strerror(errno));
  }
  return ok_status();
}

// The store exists, and it or its directory (where SQLite makes its -wal and -shm) cannot
// be written by this user: access() knows read-only mounts and file modes alike.
bool cannot_be_written(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  const std::filesystem::path parent = std::filesystem::absolute(path, ec).parent_path();
  return ::access(path.c_str(), W_OK) != 0 || ::access(parent.c_str(), W_OK) != 0;
}

// A file: URI as SQLite reads one: the absolute path with every byte but unreserved
// characters and '/' percent-encoded, so '?', '#' and '%' in a path stay part of it.
std::string file_uri(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (const char c : std::filesystem::absolute(path).string()) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri.push_back(c);
    } else {
      uri.push_back('%');
      uri.push_back(kHex[byte >> 4]);
      uri.push_back(kHex[byte & 0xF]);
    }
  }
  return uri;
}

}  // namespace

bool is_store_file(const std::string& db_path, const std::string& path) {
  if (db_path.empty() || db_path == ":memory:" || path.empty()) return false;
  struct stat target {};
  const bool target_exists = ::stat(path.c_str(), &target) == 0;
  std::error_code ec;
  const auto named = std::filesystem::weakly_canonical(path, ec);
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::string own = db_path + suffix;
    struct stat info {};
    if (target_exists && ::stat(own.c_str(), &info) == 0) {
      if (info.st_dev == target.st_dev && info.st_ino == target.st_ino) return true;
      continue;
    }
    std::error_code own_ec;
    const auto own_named = std::filesystem::weakly_canonical(own, own_ec);
    if (!ec && !own_ec && named == own_named) return true;
  }
  return false;
}

Error sqlite_error(sqlite3* db, std::string_view what) {
  std::string message(what);
  if (db != nullptr) {
    message += ": ";
    message += sqlite3_errmsg(db);
  }
  if (db != nullptr && sqlite3_errcode(db) == SQLITE_FULL) return storage_full(db, std::move(message));
  if (db != nullptr && sqlite3_errcode(db) == SQLITE_READONLY) return store_read_only(db, std::move(message));
  return make_error(ErrorCode::kInternal, std::move(message));
}

Error store_read_only(sqlite3* db, std::string message) {
  const char* file = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
  const std::string path = file != nullptr && *file != '\0' ? file : "the store";
  return make_error(ErrorCode::kPermDenied, "the store cannot be written: " + message,
                    {{"path", path}, {"reason", "store_read_only"}},
                    "make " + path + " and its directory writable by this user (or move it with --db), "
                    "then restart companyosd",
                    Retry::kSafe);
}

Error storage_full(sqlite3* db, std::string message) {
  const char* file = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
  const std::string path = file != nullptr ? file : "";
  return make_error(ErrorCode::kStorageFull, "the store's disk is full: " + message,
                    {{"path", path}, {"reason", "disk_full"}},
                    "free space on the filesystem that holds " +
                        (path.empty() ? std::string("the store") : path) + ", then try again",
                    Retry::kSafe);
}

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(stmt_.get(), index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(stmt_.get(), index, value.data(), static_cast<int>(value.size()),
                    SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind_null(int index) {
  sqlite3_bind_null(stmt_.get(), index);
  return *this;
}

Statement& Statement::bind(int index, const std::optional<std::string>& value) {
  return value ? bind(index, std::string_view(*value)) : bind_null(index);
}

Result<bool> Statement::step() {
  int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return sqlite_error(sqlite3_db_handle(stmt_.get()), "statement failed");
}

Status Statement::each_row(const std::function<Status(Statement&)>& on_row) {
  for (;;) {
    auto row = step();
    if (!row) return std::move(row).take_error();
    if (!*row) return ok_status();
    if (auto st = on_row(*this); !st) return st;
  }
}

Status Statement::run() {
  return each_row([](Statement&) { return ok_status(); });
}

Status Statement::reset() {
  sqlite3_clear_bindings(stmt_.get());
  if (sqlite3_reset(stmt_.get()) != SQLITE_OK) {
    return sqlite_error(sqlite3_db_handle(stmt_.get()), "statement reset failed");
  }
  return ok_status();
}

std::int64_t Statement::column_int64(int index) const {
  return sqlite3_column_int64(stmt_.get(), index);
}

std::string Statement::column_text(int index) const {
  const auto* text = sqlite3_column_text(stmt_.get(), index);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), index)));
}

bool Statement::column_is_null(int index) const {
  return sqlite3_column_type(stmt_.get(), index) == SQLITE_NULL;
}

Result<Database> Database::open(const std::string& path) {
  auto writable = open_writable(path);
  if (writable || path == ":memory:") return writable;
  // A store that exists but cannot be written (a read-only file or filesystem) is opened
  // read-only instead: the daemon still serves, says so at start and in status, and every
  // change is refused with what to do (PERM_DENIED, store_read_only).
  // Only a store this user cannot write falls back (a read-only file, directory or
  // filesystem); any other failure — a corrupt file, a lock — stays the error it is.
  if (!cannot_be_written(path)) return writable;
  auto read_only = open_read_only(path, writable.error().message);
  if (!read_only) return writable;
  return read_only;
}

Result<Database> Database::open_read_only(const std::string& path, const std::string& why) {
  // Plain read-only first; a WAL store on a read-only filesystem cannot make its -shm, so
  // it is opened as immutable (nothing can write it there either).
  for (const char* uri_options : {"mode=ro", "immutable=1"}) {
    const std::string address = file_uri(path) + "?" + uri_options;
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(address.c_str(), &raw,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    std::unique_ptr<sqlite3, SqliteCloser> handle(raw);
    if (rc != SQLITE_OK) continue;
    Database db(std::move(handle), path);
    db.read_only_reason_ = why;
    sqlite3_busy_timeout(db.handle(), 5000);
    // Reading works only if the schema can be read; a pending migration needs a write.
    if (!db.exec("SELECT count(*) FROM sqlite_schema").ok()) continue;
    if (db.schema_version() < builtin_migrations().back().version) {
      return store_read_only(db.handle(), "the store at " + path + " needs migration " +
                                              std::to_string(builtin_migrations().back().version) +
                                              " and cannot be written (" + why + ")");
    }
    return db;
  }
  return make_error(ErrorCode::kInternal, "the store at " + path + " can be neither written nor read: " + why);
}

Result<Database> Database::open_writable(const std::string& path) {
  const bool in_memory = path == ":memory:";
  if (!in_memory) {
    if (auto st = ensure_parent_directory(path); !st) return std::move(st).take_error();
  }
  sqlite3* raw = nullptr;
  int rc = SQLITE_OK;
  {
    ScopedUmask private_files(077);
    rc = sqlite3_open_v2(path.c_str(), &raw,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  }
  std::unique_ptr<sqlite3, SqliteCloser> handle(raw);
  if (rc != SQLITE_OK) return sqlite_error(raw, "cannot open store " + path);
  // SQLite opens a file it may not write read-only without a word.
  if (sqlite3_db_readonly(raw, "main") == 1) {
    return store_read_only(raw, path + " is not writable by this user");
  }
  if (!in_memory) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      if (auto st = make_private(path + suffix); !st) return std::move(st).take_error();
    }
  }

  Database db(std::move(handle), path);
  sqlite3_busy_timeout(db.handle(), 5000);
  if (auto st = db.exec("PRAGMA foreign_keys = ON"); !st) return std::move(st).take_error();
  if (!in_memory) {
    if (auto st = db.exec("PRAGMA journal_mode = WAL"); !st) return std::move(st).take_error();
    if (auto st = db.exec("PRAGMA synchronous = NORMAL"); !st) return std::move(st).take_error();
  }
  if (auto st = apply_migrations(db); !st) return std::move(st).take_error();
  return db;
}

void Database::defer_checkpoints() { sqlite3_wal_autocheckpoint(db_.get(), 0); }

Status Database::checkpoint() {
  if (sqlite3_wal_checkpoint_v2(db_.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr) !=
      SQLITE_OK) {
    return sqlite_error(db_.get(), "checkpoint of the store's WAL");
  }
  return ok_status();
}

Status Database::exec(std::string_view sql) {
  char* message = nullptr;
  std::string statement(sql);
  int rc = sqlite3_exec(db_.get(), statement.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string text = message != nullptr ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    if ((rc & 0xff) == SQLITE_FULL) return storage_full(db_.get(), "store error: " + text);
    if ((rc & 0xff) == SQLITE_READONLY) return store_read_only(db_.get(), "store error: " + text);
    return make_error(ErrorCode::kInternal, "store error: " + text);
  }
  return ok_status();
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return sqlite_error(db_.get(), "cannot prepare statement");
  return Statement(stmt);
}

Status Database::transaction(const std::function<Status()>& body) {
  if (auto st = exec("BEGIN IMMEDIATE"); !st) return st;
  Status result = body();
  if (!result) {
    (void)exec("ROLLBACK");
    return result;
  }
  if (auto st = exec("COMMIT"); !st) {
    (void)exec("ROLLBACK");
    return st;
  }
  return ok_status();
}

int Database::schema_version() const {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db_.get(), "PRAGMA user_version", -1, &raw, nullptr) != SQLITE_OK) {
    return -1;
  }
  Statement stmt(raw);
  auto row = stmt.step();
  if (!row || !*row) return -1;
  return static_cast<int>(stmt.column_int64(0));
}

}  // namespace companyos::store
