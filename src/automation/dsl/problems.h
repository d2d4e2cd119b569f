// Where a problem is (its JSON path) and the list of problems a definition has: every one
// counted, the first kMaxReportedProblems kept. Internal to the automation module.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "automation/validation.h"

namespace companyos::automation::dsl {

// "parent.key", or parent["key"] when the key is no identifier; the key alone at the top.
std::string member_path(const std::string& parent, std::string_view key);
// "parent[index]".
std::string index_path(const std::string& parent, std::size_t index);

class Problems {
 public:
  void add(std::string path, std::string message) {
    ++count_;
    if (list_.size() < kMaxReportedProblems) list_.push_back({std::move(path), std::move(message)});
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
  std::vector<Problem> list_;
  std::size_t count_ = 0;
};

// "null", "a boolean", "a number", "a string", "an array" or "an object".
std::string json_type_name(const nlohmann::json& value);
// A string's rules common to every field: UTF-8, no NUL, a size bound.
std::optional<std::string> string_problem(const nlohmann::json& value, std::size_t max_bytes);

}  // namespace companyos::automation::dsl
