// Checks on user-given text shared by the modules that validate it (launch targets,
// automation definitions).
#pragma once

#include <cstddef>
#include <string_view>

namespace companyos {

// C0 controls, DEL, and C1 controls as UTF-8 encodes them (0xC2 0x80–0x9F).
inline bool has_control_characters(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) return true;
    if (byte == 0xC2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9F) return true;
    }
  }
  return false;
}

}  // namespace companyos
