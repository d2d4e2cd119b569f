// Splitting UTF-8 text into Unicode code points, strictly: overlong forms, surrogates,
// values past U+10FFFF and truncated sequences are rejected.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace companyos::x11 {

// nullopt when `text` is not valid UTF-8.
std::optional<std::u32string> decode_utf8(std::string_view text);

}  // namespace companyos::x11
