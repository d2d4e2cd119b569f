// Prepared statements kept for reuse by one store object: compiling SQL costs more than
// running these small statements, and recording a run repeats the same few dozen.
// A lease hands out a statement and resets it (bindings and cursor) when it ends, so no
// cached statement holds a read snapshot open. A statement already leased is not shared:
// a second lease of the same SQL gets a fresh one.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "companyos/result.h"
#include "store/database.h"

namespace companyos::store {

class StatementCache;

class StatementLease {
 public:
  StatementLease(StatementLease&& other) noexcept;
  StatementLease& operator=(StatementLease&&) = delete;
  StatementLease(const StatementLease&) = delete;
  StatementLease& operator=(const StatementLease&) = delete;
  ~StatementLease();

  Statement& operator*() { return *statement_; }
  Statement* operator->() { return statement_; }

 private:
  friend class StatementCache;
  StatementLease(Statement* cached, bool* busy) : statement_(cached), busy_(busy) {}
  explicit StatementLease(Statement fresh);

  std::optional<Statement> fresh_;
  Statement* statement_ = nullptr;
  bool* busy_ = nullptr;  // the cache entry's flag; null for a fresh statement
};

class StatementCache {
 public:
  explicit StatementCache(Database& db) : db_(db) {}
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  Result<StatementLease> prepare(std::string_view sql);
  Database& database() { return db_; }

 private:
  struct Entry {
    Statement statement;
    bool busy = false;
  };
  Database& db_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace companyos::store
