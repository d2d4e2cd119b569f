// Reading colour channels out of TrueColor/DirectColor pixel values through the visual's
// channel masks, whatever the depth (16, 24 or 32 bits).
#pragma once

#include <cstdint>
#include <optional>

namespace companyos::x11 {

struct ChannelMask {
  unsigned shift = 0;  // position of the lowest bit
  unsigned bits = 0;   // width in bits, 1–16
};

// nullopt when `mask` is zero, not one contiguous run of bits, or wider than 16 bits.
std::optional<ChannelMask> channel_mask(unsigned long mask);

// The channel's value in `pixel`, scaled to 0–255 (so a 5-bit 31 becomes 255).
std::uint8_t channel_value(unsigned long pixel, ChannelMask mask);

struct PixelLayout {
  ChannelMask red;
  ChannelMask green;
  ChannelMask blue;
};

std::optional<PixelLayout> pixel_layout(unsigned long red_mask, unsigned long green_mask,
                                        unsigned long blue_mask);

}  // namespace companyos::x11
