#include "desktop/window_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace companyos::desktop {
namespace {

TEST(TypingChunks, CutBetweenCharactersNeverInsideOne) {
  struct Case {
    std::string text;
    std::size_t per_chunk;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"", 16, {}},
      {"abc", 16, {"abc"}},
      {"abcdef", 2, {"ab", "cd", "ef"}},
      {"abcde", 2, {"ab", "cd", "e"}},
      {"héllo", 2, {"hé", "ll", "o"}},              // é is two bytes, one character
      {"€€€", 2, {"€€", "€"}},                      // three bytes each
      {"a😀b", 1, {"a", "😀", "b"}},                // four bytes
      {"ab", 0, {"a", "b"}},                        // 0 is taken as 1
      {"line\nnext", 5, {"line\n", "next"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const auto chunks = typing_chunks(c.text, c.per_chunk);
    std::vector<std::string> got(chunks.begin(), chunks.end());
    EXPECT_EQ(got, c.expected);
  }
}

TEST(TypingChunks, ATruncatedSequenceAtTheEndStaysInTheText) {
  // Callers check the text first; a cut-off lead byte must still not read past the end.
  const std::string text = "ab\xE2\x82";
  const auto chunks = typing_chunks(text, 2);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0], "ab");
  EXPECT_EQ(chunks[1], "\xE2\x82");
}

TEST(PointInClientArea, CountsFromTheTopLeftPixelAndStaysInside) {
  const Bounds area{100, 50, 200, 80};
  struct Case {
    int x;
    int y;
    std::optional<ScreenPoint> expected;
  };
  const Case cases[] = {
      {0, 0, ScreenPoint{100, 50}},
      {199, 79, ScreenPoint{299, 129}},
      {10, 20, ScreenPoint{110, 70}},
      {200, 0, std::nullopt},  // one past the right edge
      {0, 80, std::nullopt},   // one past the bottom edge
      {-1, 0, std::nullopt},
      {0, -5, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.x) + "," + std::to_string(c.y));
    EXPECT_EQ(point_in_client_area(area, c.x, c.y), c.expected);
  }
  EXPECT_EQ(point_in_client_area(Bounds{0, 0, 0, 0}, 0, 0), std::nullopt) << "an empty window has no point";
}

}  // namespace
}  // namespace companyos::desktop
