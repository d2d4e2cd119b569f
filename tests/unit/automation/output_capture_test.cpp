#include "automation/output_capture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/output_cap.h"

namespace companyos::automation {
namespace {

TEST(OutputCapture, KeepsTheFirstCapBytesAndCountsEverything) {
  struct Case {
    std::string_view what;
    std::size_t cap;
    std::vector<std::string> chunks;
    std::string kept;
    std::uint64_t total;
    bool truncated;
  };
  const std::string big(70'000, 'x');
  const Case cases[] = {
      {"nothing written", 8, {}, "", 0, false},
      {"under the cap", 8, {"abc", "de"}, "abcde", 5, false},
      {"exactly the cap", 5, {"abc", "de"}, "abcde", 5, false},
      {"one byte over", 5, {"abc", "def"}, "abcde", 6, true},
      {"writes after the cut are only counted", 4, {"abcdef", "gh", "ij"}, "abcd", 10, true},
      {"a chunk after an exact fill", 3, {"abc", "d"}, "abc", 4, true},
      {"cap of zero keeps nothing", 0, {"abc"}, "", 3, true},
      {"empty chunks change nothing", 4, {"", "ab", ""}, "ab", 2, false},
      {"the step cap over 64 KiB",
       store::kStepOutputCap,
       {big},
       big.substr(0, store::kStepOutputCap),
       70'000,
       true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    OutputCapture capture(c.cap);
    for (const std::string& chunk : c.chunks) capture.append(chunk);
    EXPECT_EQ(capture.text(), c.kept);
    EXPECT_EQ(capture.total_bytes(), c.total);
    EXPECT_EQ(capture.truncated(), c.truncated);
    EXPECT_LE(capture.text().size(), c.cap);
  }
}

TEST(OutputCapture, NeverSplitsAUtf8CharacterAtTheCut) {
  struct Case {
    std::string_view what;
    std::size_t cap;
    std::string written;
    std::string kept;
  };
  const std::string e_acute = "\xC3\xA9";        // 2 bytes
  const std::string euro = "\xE2\x82\xAC";       // 3 bytes
  const std::string smile = "\xF0\x9F\x98\x80";  // 4 bytes
  const Case cases[] = {
      {"2-byte character cut after its lead", 2, "a" + e_acute, "a"},
      {"2-byte character kept whole", 3, "a" + e_acute + "b", "a" + e_acute},
      {"3-byte character cut after 1 byte", 2, "a" + euro, "a"},
      {"3-byte character cut after 2 bytes", 3, "a" + euro, "a"},
      {"3-byte character kept whole", 4, "a" + euro + "b", "a" + euro},
      {"4-byte character cut after 3 bytes", 4, "a" + smile, "a"},
      {"4-byte character kept whole", 5, "a" + smile + "b", "a" + smile},
      {"ASCII is cut exactly", 3, "abcdef", "abc"},
      {"an invalid byte at the cut is kept", 2,
       "a\xFF"
       "b",
       "a\xFF"},
      {"a stray continuation byte is kept", 2,
       "a\x80"
       "b",
       "a\x80"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    OutputCapture capture(c.cap);
    capture.append(c.written);
    EXPECT_EQ(capture.text(), c.kept);
    EXPECT_EQ(capture.total_bytes(), c.written.size());
    EXPECT_TRUE(capture.truncated());
  }
}

TEST(OutputCapture, ACharacterSplitAcrossChunksIsDroppedOnlyWhenTheCapCutsIt) {
  OutputCapture whole(8);
  whole.append("ab\xE2\x82");
  whole.append(
      "\xAC"
      "c");
  EXPECT_EQ(whole.text(),
            "ab\xE2\x82\xAC"
            "c");
  EXPECT_FALSE(whole.truncated());

  OutputCapture cut(4);
  cut.append("ab\xE2\x82");  // fills the cap exactly, mid-character
  cut.append(
      "\xAC"
      "c");
  EXPECT_EQ(cut.text(), "ab");
  EXPECT_EQ(cut.total_bytes(), 6u);
  EXPECT_TRUE(cut.truncated());
}

}  // namespace
}  // namespace companyos::automation
