#include "x11/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos::x11 {
namespace {

TEST(DecodeUtf8, DecodesValidText) {
  struct Case {
    std::string_view text;
    std::u32string expected;
  };
  const Case cases[] = {
      {"", U""},
      {"abc", U"abc"},
      {"h\xC3\xA9llo", U"h\u00e9llo"},
      {"\xE2\x82\xAC", U"\u20ac"},
      {"\xF0\x9F\x98\x80", U"\U0001F600"},
      {"\xF4\x8F\xBF\xBF", U"\U0010FFFF"},
      {std::string_view("a\0b", 3), std::u32string(U"a\0b", 3)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    EXPECT_EQ(decode_utf8(c.text), c.expected);
  }
}

TEST(DecodeUtf8, RejectsMalformedText) {
  const std::string_view cases[] = {
      "\x80",                  // continuation without lead
      "\xC3",                  // truncated
      "\xE2\x82",              // truncated
      "\xC3\x28",              // bad continuation
      "\xC0\xAF",              // overlong '/'
      "\xE0\x80\xAF",          // overlong
      "\xF0\x80\x80\xAF",      // overlong
      "\xED\xA0\x80",          // surrogate U+D800
      "\xF4\x90\x80\x80",      // past U+10FFFF
      "\xF8\x88\x80\x80\x80",  // five-byte form
      "\xFF",
      "ok\xFE",
  };
  for (std::string_view text : cases) {
    SCOPED_TRACE(testing::PrintToString(std::string(text)));
    EXPECT_EQ(decode_utf8(text), std::nullopt);
  }
}

}  // namespace
}  // namespace companyos::x11
