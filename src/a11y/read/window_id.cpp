#include "a11y/read/window_id.h"

#include <cstdint>
#include <cstdio>

namespace companyos::a11y {

std::string window_id(std::string_view bus_name, std::string_view object_path) {
  constexpr std::uint64_t kOffsetBasis = 0xcbf29ce484222325ull;
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  std::uint64_t hash = kOffsetBasis;
  auto mix = [&hash](std::string_view text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= kPrime;
    }
  };
  mix(bus_name);
  mix("|");
  mix(object_path);
  char text[16];
  std::snprintf(text, sizeof text, "w%012llx",
                static_cast<unsigned long long>(hash & 0xffffffffffffull));
  return text;
}

}  // namespace companyos::a11y
