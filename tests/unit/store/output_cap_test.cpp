#include "store/output_cap.h"

#include <gtest/gtest.h>

namespace companyos::store {
namespace {

struct OutputCapCase {
  const char* label;
  std::string input;
  std::size_t budget;
  std::string expected;
  bool truncated;
};

class OutputCap : public ::testing::TestWithParam<OutputCapCase> {};

TEST_P(OutputCap, CutsAtTheBudgetWithoutSplittingACharacter) {
  const OutputCapCase& c = GetParam();
  const CappedOutput out = cap_output(c.input, c.budget);
  EXPECT_EQ(out.text, c.expected) << c.label;
  EXPECT_EQ(out.truncated, c.truncated) << c.label;
  EXPECT_LE(out.text.size(), c.budget);
}

// "é" is 2 bytes, "€" 3, "😀" 4.
INSTANTIATE_TEST_SUITE_P(
    Table, OutputCap,
    ::testing::Values(OutputCapCase{"fits", "abc", 3, "abc", false}, OutputCapCase{"empty", "", 0, "", false},
                      OutputCapCase{"zero budget", "abc", 0, "", true}, OutputCapCase{"ascii", "abcdef", 4, "abcd", true},
                      OutputCapCase{"two-byte split", "a\xC3\xA9", 2, "a", true},
                      OutputCapCase{"two-byte whole", "a\xC3\xA9z", 3, "a\xC3\xA9", true},
                      OutputCapCase{"three-byte split 1", "\xE2\x82\xAC", 1, "", true},
                      OutputCapCase{"three-byte split 2", "x\xE2\x82\xAC", 3, "x", true},
                      OutputCapCase{"four-byte split 3", "\xF0\x9F\x98\x80!", 3, "", true},
                      OutputCapCase{"four-byte whole", "\xF0\x9F\x98\x80!", 4, "\xF0\x9F\x98\x80", true}),
    [](const auto& info) {
      std::string name = info.param.label;
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

}  // namespace
}  // namespace companyos::store
