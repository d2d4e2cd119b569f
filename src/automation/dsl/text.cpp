#include "automation/dsl/text.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace companyos::automation::dsl {

using json = nlohmann::json;

// Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF. JSON text that
// was parsed is always valid; a document built in code need not be.
bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t low = 0;
    std::uint32_t code = 0;
    if (byte < 0x80) {
      ++i;
      continue;
    } else if ((byte & 0xE0) == 0xC0) {
      length = 2, low = 0x80, code = byte & 0x1F;
    } else if ((byte & 0xF0) == 0xE0) {
      length = 3, low = 0x800, code = byte & 0x0F;
    } else if ((byte & 0xF8) == 0xF0) {
      length = 4, low = 0x10000, code = byte & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    if (code < low || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

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
