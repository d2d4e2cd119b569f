// The text rules a definition's strings share. Internal to the automation module:
// validation.cpp and the rest of dsl/ use it (paths, problems and the object reader are
// core's: core/problems.h, core/object_reader.h).
#pragma once

#include <cstddef>
#include <string_view>

namespace companyos::automation::dsl {

// Code points of valid UTF-8.
std::size_t character_count(std::string_view text);
bool is_blank(std::string_view text);

}  // namespace companyos::automation::dsl
