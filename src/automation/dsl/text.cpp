#include "automation/dsl/text.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace companyos::automation::dsl {

using json = nlohmann::json;

// Code points of valid UTF-8.
std::size_t character_count(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t") == std::string_view::npos;
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

bool contains(Fields names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string joined(Fields names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace companyos::automation::dsl
