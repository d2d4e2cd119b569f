#include "x11/pixel_format.h"

#include <gtest/gtest.h>

namespace companyos::x11 {
namespace {

TEST(ChannelMask, DerivesShiftAndWidth) {
  struct Case {
    unsigned long mask;
    std::optional<ChannelMask> expected;
  };
  const Case cases[] = {
      {0xFF0000, ChannelMask{16, 8}},
      {0x00FF00, ChannelMask{8, 8}},
      {0x0000FF, ChannelMask{0, 8}},
      {0xF800, ChannelMask{11, 5}},
      {0x07E0, ChannelMask{5, 6}},
      {0x3FF00000, ChannelMask{20, 10}},
      {0, std::nullopt},
      {0xF0F0, std::nullopt},
      {0x1FFFF, std::nullopt},  // wider than 16 bits
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.mask);
    const auto got = channel_mask(c.mask);
    ASSERT_EQ(got.has_value(), c.expected.has_value());
    if (got) {
      EXPECT_EQ(got->shift, c.expected->shift);
      EXPECT_EQ(got->bits, c.expected->bits);
    }
  }
}

TEST(ChannelValue, ScalesEveryDepthToEightBits) {
  struct Case {
    unsigned long pixel;
    unsigned long mask;
    std::uint8_t expected;
  };
  const Case cases[] = {
      {0x123456, 0xFF0000, 0x12},   {0x123456, 0x00FF00, 0x34},    {0x123456, 0x0000FF, 0x56},
      {0xFF123456, 0xFF0000, 0x12},  // the alpha/padding byte of a 32-bit pixel is ignored
      {0xF800, 0xF800, 255},        {0x0000, 0xF800, 0},           {0x07E0, 0x07E0, 255},
      {0x0400, 0x07E0, 130},        {0x3FF00000, 0x3FF00000, 255},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pixel);
    EXPECT_EQ(channel_value(c.pixel, *channel_mask(c.mask)), c.expected);
  }
}

TEST(PixelLayout, RefusesOverlappingOrMissingMasks) {
  EXPECT_TRUE(pixel_layout(0xFF0000, 0x00FF00, 0x0000FF).has_value());
  EXPECT_TRUE(pixel_layout(0x0000FF, 0x00FF00, 0xFF0000).has_value());  // BGR
  EXPECT_FALSE(pixel_layout(0xFF0000, 0xFF0000, 0x0000FF).has_value());
  EXPECT_FALSE(pixel_layout(0xFF0000, 0x00FF00, 0).has_value());
  EXPECT_FALSE(pixel_layout(0xFF00FF, 0x00FF00, 0x0000FF).has_value());
}

}  // namespace
}  // namespace companyos::x11
