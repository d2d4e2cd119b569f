// The daemon's settings: a fixed table of keys, each validated before it is stored.
// A bad value is INVALID_ARGS naming the allowed range; the stored state never changes then.
#pragma once

#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

#include "companyos/result.h"
#include "core/clock.h"

namespace companyos::store {

class Database;

enum class SettingKind { kBool, kLevel, kExecutablePath, kPort };

struct SettingSpec {
  std::string_view key;
  SettingKind kind;
  std::string_view default_json;  // JSON text of the default value
  std::string_view allowed;       // shown in errors and help
  std::string_view help;
};

std::span<const SettingSpec> setting_specs();
const SettingSpec* find_setting(std::string_view key);

// Returns the value to store, or INVALID_ARGS (unknown key, wrong type, out of range).
Result<nlohmann::json> validate_setting(std::string_view key, const nlohmann::json& value);

class Settings {
 public:
  Settings(Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Every key with its current (or default) value.
  Result<nlohmann::json> all() const;
  Result<nlohmann::json> get(std::string_view key) const;
  // Validates and stores one value in one transaction; returns the stored value.
  Result<nlohmann::json> set(std::string_view key, const nlohmann::json& value);

 private:
  Database& db_;
  const Clock& clock_;
};

}  // namespace companyos::store
