// One JSON object from outside, read member by member: wrong types, missing members and
// unknown members are reported where they are (core/problems.h), all at once, instead of
// stopping at the first. An automation's definition is read with it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/problems.h"

namespace companyos {

// The names an object may have.
using Fields = std::span<const std::string_view>;

inline bool contains(Fields names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "a, b, c".
std::string joined(Fields names);

// A string member's size bound unless the reader is given another.
inline constexpr std::size_t kMaxFieldBytes = 64 * 1024;

// Reads the members of one object at `path`, reporting wrong types and missing members
// where they are.
class ObjectReader {
 public:
  ObjectReader(const nlohmann::json& object, std::string path, Problems& problems)
      : object_(object), path_(std::move(path)), problems_(problems) {}

  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return member_path(path_, key); }
  bool has(std::string_view key) const { return object_.contains(key); }
  const nlohmann::json* find(std::string_view key) const {
    const auto found = object_.find(key);
    return found == object_.end() ? nullptr : &*found;
  }

  // Every member not in `fields` is a problem naming it; `holder` says what has them.
  void allow_only(Fields fields, std::string_view holder) const {
    for (const auto& [key, value] : object_.items()) {
      if (contains(fields, key)) continue;
      problems_.add(path_of(key),
                    "unknown field (" + std::string(holder) + " has: " + joined(fields) + ")");
    }
  }

  std::optional<std::string> required_string(std::string_view key,
                                             std::size_t max_bytes = kMaxFieldBytes) const {
    if (!has(key)) {
      problems_.add(path_of(key), "required");
      return std::nullopt;
    }
    return optional_string(key, max_bytes);
  }

  // nullopt when absent or unusable (then with a problem).
  std::optional<std::string> optional_string(std::string_view key,
                                             std::size_t max_bytes = kMaxFieldBytes) const {
    const nlohmann::json* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!problems_.check(path_of(key), string_problem(*value, max_bytes))) return std::nullopt;
    return value->get<std::string>();
  }

  // `fallback` when absent; nullopt (with a problem) when not a whole number in range.
  std::optional<int> integer(std::string_view key, int low, int high, int fallback) const {
    const nlohmann::json* value = find(key);
    if (value == nullptr) return fallback;
    const std::string range = "from " + std::to_string(low) + " to " + std::to_string(high);
    if (!value->is_number_integer()) {
      problems_.add(path_of(key), "must be a whole number " + range +
                                      (value->is_number() ? ", got " + value->dump()
                                                          : ", not " + json_type_name(*value)));
      return std::nullopt;
    }
    // An unsigned number above INT64_MAX would wrap in get<std::int64_t>.
    const bool in_range =
        value->is_number_unsigned()
            ? value->get<std::uint64_t>() <= static_cast<std::uint64_t>(high) &&
                  static_cast<std::int64_t>(value->get<std::uint64_t>()) >= low
            : value->get<std::int64_t>() >= low && value->get<std::int64_t>() <= high;
    if (!in_range) {
      problems_.add(path_of(key), "must be " + range + ", got " + value->dump());
      return std::nullopt;
    }
    return static_cast<int>(value->get<std::int64_t>());
  }

  bool boolean(std::string_view key, bool fallback) const {
    const nlohmann::json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_boolean()) {
      problems_.add(path_of(key), "must be true or false, not " + json_type_name(*value));
      return fallback;
    }
    return value->get<bool>();
  }

 private:
  const nlohmann::json& object_;
  std::string path_;
  Problems& problems_;
};

}  // namespace companyos
