// An 8-bit RGB image in memory: rows top to bottom, three bytes a pixel, no padding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace companyos::x11 {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;

  static constexpr std::size_t kChannels = 3;
  std::size_t row_bytes() const { return static_cast<std::size_t>(width) * kChannels; }
  // Whether the buffer holds exactly width × height pixels.
  bool consistent() const {
    return width > 0 && height > 0 && rgb.size() == row_bytes() * static_cast<std::size_t>(height);
  }
};

}  // namespace companyos::x11
