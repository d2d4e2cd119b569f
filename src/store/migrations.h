// Numbered schema migrations, applied in order at open; each runs in its own transaction
// and bumps PRAGMA user_version, so applying them again is a no-op.
#pragma once

#include <span>
#include <string_view>

#include "companyos/result.h"

namespace companyos::store {

class Database;

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

std::span<const Migration> builtin_migrations();
Status apply_migrations(Database& db, std::span<const Migration> migrations = builtin_migrations());

}  // namespace companyos::store
