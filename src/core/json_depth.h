// A cheap check on outside JSON text, made before anything recursive touches it.
#pragma once

#include <cstddef>
#include <string_view>

namespace companyos {

// How deeply arrays and objects nest in the JSON text `text` ("[]" is 1, "{\"a\":[1]}" is 2).
// Brackets inside strings do not count (escapes are honoured, so "\"" does not end one),
// and a stray closer never takes the depth below zero. One pass and no recursion, so it
// can vet outside text before a parser or a copy that recurses per level sees it.
std::size_t json_nesting_depth(std::string_view text);

}  // namespace companyos
