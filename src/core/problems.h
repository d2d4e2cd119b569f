// Problems found in JSON from outside, each where it is (its JSON path), reported all at
// once: an automation's definition, or any params read with ObjectReader (object_reader.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace companyos {

struct Problem {
  std::string path;  // "actions[2].cwd"; "" for the input as a whole
  std::string message;
  friend bool operator==(const Problem&, const Problem&) = default;
};

// "actions[2].cwd: must be an absolute path"; the message alone when the path is "".
std::string to_string(const Problem& problem);
nlohmann::json to_json(const Problem& problem);  // {"path": …, "message": …}

// Every problem counted, the first `keep` kept: a huge bad input costs a bounded report.
class Problems {
 public:
  explicit Problems(std::size_t keep) : keep_(keep) {}

  void add(std::string path, std::string message) {
    ++count_;
    if (list_.size() < keep_) list_.push_back({std::move(path), std::move(message)});
  }
  // Adds the message when there is one; true when there was none.
  bool check(const std::string& path, std::optional<std::string> message) {
    if (!message) return true;
    add(path, std::move(*message));
    return false;
  }
  std::size_t count() const { return count_; }
  const std::vector<Problem>& list() const { return list_; }

 private:
  std::size_t keep_;
  std::vector<Problem> list_;
  std::size_t count_ = 0;
};

// A name that a JSON path can show after a dot: letters, digits and _, not a digit first.
bool is_identifier(std::string_view text);
// The text as a JSON string, quotes and escapes included.
std::string in_quotes(std::string_view text);
// "parent.key", or parent["key"] when the key is no identifier; the key alone at the top.
std::string member_path(const std::string& parent, std::string_view key);
// "parent[index]".
std::string index_path(const std::string& parent, std::size_t index);

// "null", "a boolean", "a number", "a string", "an array" or "an object".
std::string json_type_name(const nlohmann::json& value);
// A string's rules common to every field: UTF-8, no NUL, a size bound.
std::optional<std::string> string_problem(const nlohmann::json& value, std::size_t max_bytes);

}  // namespace companyos
