#include "a11y/ref.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(Ref, ParsesWellFormedRefs) {
  struct Case {
    const char* text;
    ElementRef expected;
  };
  const Case cases[] = {
      {"@abc:e12", {"abc", 12}},
      {"@s1:e1", {"s1", 1}},
      {"@0:e999999999", {"0", 999999999}},
      {"@abcdefghijklmnop:e3", {"abcdefghijklmnop", 3}},
  };
  for (const Case& c : cases) {
    auto parsed = parse_ref(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.error().message;
    EXPECT_EQ(*parsed, c.expected) << c.text;
    EXPECT_EQ(format_ref(parsed->snapshot_id, parsed->index), c.text);
  }
}

TEST(Ref, RejectsBadForms) {
  const char* bad[] = {
      "",           "abc:e12",      "@abc",        "@abc:",       "@:e12",
      "@abc:12",    "@abc:e",       "@abc:e0",     "@abc:e012",   "@abc:e-1",
      "@abc:e1x",   "@ABC:e1",      "@a-c:e1",     "@abc:e1 ",    " @abc:e1",
      "@abc:e1234567890",           "@abcdefghijklmnopq:e1",      "@abc:E12",
      "@abc:e12:e3",
  };
  for (const char* text : bad) {
    auto parsed = parse_ref(text);
    ASSERT_FALSE(parsed.ok()) << "accepted '" << text << "'";
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs) << text;
    EXPECT_FALSE(parsed.error().suggestion.empty()) << text;
  }
}

TEST(Ref, SnapshotIds) {
  EXPECT_TRUE(is_valid_snapshot_id("k3x9"));
  EXPECT_FALSE(is_valid_snapshot_id(""));
  EXPECT_FALSE(is_valid_snapshot_id("has space"));
  EXPECT_FALSE(is_valid_snapshot_id(std::string(17, 'a')));
}

}  // namespace
}  // namespace companyos::a11y
