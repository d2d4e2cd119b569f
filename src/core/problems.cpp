#include "core/problems.h"

#include <algorithm>

#include "core/text.h"

namespace companyos {

using json = nlohmann::json;

std::string to_string(const Problem& problem) {
  if (problem.path.empty()) return problem.message;
  return problem.path + ": " + problem.message;
}

json to_json(const Problem& problem) {
  return json{{"path", problem.path}, {"message", problem.message}};
}

bool is_identifier(std::string_view text) {
  if (text.empty()) return false;
  auto word = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9');
  };
  return !(text.front() >= '0' && text.front() <= '9') &&
         std::all_of(text.begin(), text.end(), word);
}

std::string in_quotes(std::string_view text) {
  return json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string member_path(const std::string& parent, std::string_view key) {
  if (!is_identifier(key)) return parent + "[" + in_quotes(key) + "]";
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string json_type_name(const json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_array()) return "an array";
  return "an object";
}

std::optional<std::string> string_problem(const json& value, std::size_t max_bytes) {
  if (!value.is_string()) return "must be a string, not " + json_type_name(value);
  const auto& text = value.get_ref<const std::string&>();
  if (!is_valid_utf8(text)) return "must be valid UTF-8";
  if (text.find('\0') != std::string::npos) return "must not contain NUL characters";
  if (text.size() > max_bytes) {
    return "must be at most " + std::to_string(max_bytes) + " bytes, got " +
           std::to_string(text.size());
  }
  return std::nullopt;
}

}  // namespace companyos
