// Caps captured step output to a byte budget without splitting a UTF-8 sequence, so the
// stored text is never cut mid-character.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace companyos::store {

inline constexpr std::size_t kStepOutputCap = 64 * 1024;
inline constexpr std::size_t kRunOutputCap = 128 * 1024;

struct CappedOutput {
  std::string text;
  bool truncated = false;
};

CappedOutput cap_output(std::string_view output, std::size_t budget);

}  // namespace companyos::store
