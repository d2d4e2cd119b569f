// The text rules a definition's strings share, and the wording its problems are built from.
// Internal to the automation module: validation.cpp and the rest of dsl/ use it.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace companyos::automation::dsl {

using Fields = std::span<const std::string_view>;

// Code points of valid UTF-8.
std::size_t character_count(std::string_view text);
bool is_blank(std::string_view text);
// A name that a JSON path can show after a dot: letters, digits and _, not a digit first.
bool is_identifier(std::string_view text);
// The text as a JSON string, quotes and escapes included.
std::string in_quotes(std::string_view text);
bool contains(Fields names, std::string_view name);
// "a, b, c".
std::string joined(Fields names);

}  // namespace companyos::automation::dsl
