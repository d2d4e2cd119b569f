#include "x11/pixel_format.h"

#include <bit>

namespace companyos::x11 {

std::optional<ChannelMask> channel_mask(unsigned long mask) {
  if (mask == 0) return std::nullopt;
  const auto shift = static_cast<unsigned>(std::countr_zero(mask));
  const unsigned long run = mask >> shift;
  if ((run & (run + 1)) != 0) return std::nullopt;  // holes in the run
  const auto bits = static_cast<unsigned>(std::popcount(run));
  if (bits > 16) return std::nullopt;
  return ChannelMask{shift, bits};
}

std::uint8_t channel_value(unsigned long pixel, ChannelMask mask) {
  const unsigned long max = (1UL << mask.bits) - 1;
  const unsigned long value = (pixel >> mask.shift) & max;
  // Rounded scaling keeps 0 → 0 and max → 255 for every width.
  return static_cast<std::uint8_t>((value * 255 + max / 2) / max);
}

std::optional<PixelLayout> pixel_layout(unsigned long red_mask, unsigned long green_mask,
                                        unsigned long blue_mask) {
  auto red = channel_mask(red_mask);
  auto green = channel_mask(green_mask);
  auto blue = channel_mask(blue_mask);
  if (!red || !green || !blue) return std::nullopt;
  if ((red_mask & green_mask) != 0 || (red_mask & blue_mask) != 0 ||
      (green_mask & blue_mask) != 0) {
    return std::nullopt;
  }
  return PixelLayout{*red, *green, *blue};
}

}  // namespace companyos::x11
