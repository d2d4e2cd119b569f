#include "core/text.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos {
namespace {

using namespace std::string_view_literals;

TEST(IsValidUtf8, JudgesEachByteSequence) {
  struct Case {
    const char* label;
    std::string_view text;
    bool valid;
  };
  const Case cases[] = {
      {"empty", ""sv, true},
      {"ascii", "plain text"sv, true},
      {"NUL is a character", "a\0b"sv, true},
      {"2-byte", "h\xC3\xA9llo"sv, true},
      {"3-byte", "\xE2\x82\xAC"sv, true},
      {"valid 4-byte", "\xF0\x9F\x98\x80"sv, true},
      {"last code point U+10FFFF", "\xF4\x8F\xBF\xBF"sv, true},
      {"last before surrogates U+D7FF", "\xED\x9F\xBF"sv, true},
      {"first after surrogates U+E000", "\xEE\x80\x80"sv, true},
      {"noncharacter U+FFFE", "\xEF\xBF\xBE"sv, true},
      {"smallest 2-byte U+0080", "\xC2\x80"sv, true},
      {"smallest 3-byte U+0800", "\xE0\xA0\x80"sv, true},
      {"smallest 4-byte U+10000", "\xF0\x90\x80\x80"sv, true},
      {"overlong 2-byte NUL", "\xC0\x80"sv, false},
      {"overlong 2-byte '/'", "\xC0\xAF"sv, false},
      {"overlong 2-byte U+007F", "\xC1\xBF"sv, false},
      {"overlong 3-byte", "\xE0\x80\xAF"sv, false},
      {"overlong 3-byte U+07FF", "\xE0\x9F\xBF"sv, false},
      {"overlong 4-byte", "\xF0\x80\x80\xAF"sv, false},
      {"overlong 4-byte U+FFFF", "\xF0\x8F\xBF\xBF"sv, false},
      {"high surrogate U+D800", "\xED\xA0\x80"sv, false},
      {"low surrogate U+DFFF", "\xED\xBF\xBF"sv, false},
      {"surrogate pair as CESU-8", "\xED\xA0\xBD\xED\xB8\x80"sv, false},
      {"past U+10FFFF", "\xF4\x90\x80\x80"sv, false},
      {"largest 4-byte form", "\xF7\xBF\xBF\xBF"sv, false},
      {"five-byte form", "\xF8\x88\x80\x80\x80"sv, false},
      {"six-byte form", "\xFC\x84\x80\x80\x80\x80"sv, false},
      {"0xFE", "\xFE"sv, false},
      {"0xFF", "ok\xFF"sv, false},
      {"lone continuation", "\x80"sv, false},
      {"truncated 2-byte", "\xC3"sv, false},
      {"truncated 3-byte", "\xE2\x82"sv, false},
      {"truncated 4-byte", "\xF0\x9F\x98"sv, false},
      {"truncated at the end of text", "abc\xF0\x9F"sv, false},
      {"bad continuation", "\xC3\x28"sv, false},
      {"ascii where a continuation belongs", "\xE2\x82" "a"sv, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(is_valid_utf8(c.text), c.valid);
    // Without NUL: the same verdict, except that NUL is refused.
    EXPECT_EQ(is_valid_utf8_without_nul(c.text),
              c.valid && c.text.find('\0') == std::string_view::npos);
    // The decoder agrees with the check.
    EXPECT_EQ(decode_utf8(c.text).has_value(), c.valid);
  }
}

TEST(IsValidUtf8WithoutNul, RefusesNulAnywhere) {
  EXPECT_TRUE(is_valid_utf8_without_nul("abc"));
  EXPECT_FALSE(is_valid_utf8_without_nul("\0"sv));
  EXPECT_FALSE(is_valid_utf8_without_nul("abc\0"sv));
  EXPECT_FALSE(is_valid_utf8_without_nul("\xC3\xA9\0\xC3\xA9"sv));
}

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

TEST(WithThousands, GroupsDigitsInThrees) {
  EXPECT_EQ(with_thousands(0), "0");
  EXPECT_EQ(with_thousands(999), "999");
  EXPECT_EQ(with_thousands(1000), "1,000");
  EXPECT_EQ(with_thousands(1'048'576), "1,048,576");
  EXPECT_EQ(with_thousands(2'147'483'647), "2,147,483,647");
  EXPECT_EQ(with_thousands(-12'345), "-12,345");
}

TEST(CountCharacters, CountsWhatStartsACharacter) {
  struct Case {
    std::string_view text;
    std::size_t characters;
  };
  const Case cases[] = {{"", 0},          {"abc", 3},         {"\xC3\xA9t\xC3\xA9", 3},  // été
                        {"\xF0\x9F\x98\x80", 1},  // one emoji, four bytes
                        {"\x80\x80", 0},  // continuation bytes alone start nothing
                        {"a\xE2\x82", 2}};  // a cut character still counts once
  for (const Case& c : cases) EXPECT_EQ(count_characters(c.text), c.characters) << c.text;
}

TEST(AsciiCase, FoldsOnlyAsciiLetters) {
  EXPECT_TRUE(equals_ignoring_ascii_case("GEdit", "gedit"));
  EXPECT_TRUE(equals_ignoring_ascii_case("", ""));
  EXPECT_FALSE(equals_ignoring_ascii_case("gedit", "gedit "));
  EXPECT_FALSE(equals_ignoring_ascii_case("\xC3\x84", "\xC3\xA4"));  // non-ASCII bytes are compared as they are
  EXPECT_EQ(ascii_lowercase("Mouse-Pad_2 \xC3\x84"), "mouse-pad_2 \xC3\x84");
  EXPECT_EQ(ascii_lowercase(""), "");
}

TEST(TrimAsciiSpace, DropsWhiteSpaceAtTheEndsOnly) {
  struct TrimCase {
    std::string_view text;
    std::string_view trimmed;
  };
  const TrimCase cases[] = {
      {"Open...      ", "Open..."},  // GTK 3 pads menu item names
      {"  Save\t\n", "Save"},
      {"Save As", "Save As"},
      {" a b ", "a b"},
      {"", ""},
      {" \t\r\n\f\v", ""},
      {"\xC2\xA0x\xC2\xA0", "\xC2\xA0x\xC2\xA0"},  // a no-break space is not ASCII white space
  };
  for (const TrimCase& c : cases) EXPECT_EQ(trim_ascii_space(c.text), c.trimmed) << c.text;
}

TEST(EscapeForTerminal, MakesEveryControlVisibleAndKeepsTheRest) {
  struct Case {
    std::string text;
    bool keep_newlines;
    std::string shown;
  };
  const Case cases[] = {
      {"Untitled 1 – Mousepad", false, "Untitled 1 – Mousepad"},
      {"café ✓ 漢字 😀", false, "café ✓ 漢字 😀"},
      {"C:\\path \\x1b", false, "C:\\path \\x1b"},  // backslashes as they are
      // OSC retitle, BEL, CSI clear screen, SGR colour.
      {"\x1b]0;pwned\x07Title", false, "\\x1b]0;pwned\\x07Title"},
      {"\x1b[2J\x1b[31mred", false, "\\x1b[2J\\x1b[31mred"},
      {"a\nb\tc\rd", false, "a\\nb\\tc\\rd"},
      {"a\nb\tc", true, "a\nb\\tc"},
      {std::string("nul\0byte", 8), false, "nul\\x00byte"},
      {"del\x7f", false, "del\\x7f"},
      // C1 controls as UTF-8 encodes them: CSI (U+009B), NEL (U+0085).
      {"\xc2\x9b" "2J \xc2\x85", false, "\\u009b2J \\u0085"},
      {"\xc2\xa0nbsp", false, "\xc2\xa0nbsp"},
      // Bidi overrides, isolates and marks.
      {"invoice\u202Efdp.exe", false, "invoice\\u202efdp.exe"},
      {"\u2066a\u2069 \u200E\u200F \u061C \u202A\u202B\u202C\u202D", false,
       "\\u2066a\\u2069 \\u200e\\u200f \\u061c \\u202a\\u202b\\u202c\\u202d"},
      // Bytes that are not UTF-8, and a truncated sequence at the end.
      {"\xff\xfe ok \xe2\x80", false, "\\xff\\xfe ok \\xe2\\x80"},
      {"\xed\xa0\x80", false, "\\xed\\xa0\\x80"},  // a surrogate
      {"", false, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string shown = escape_for_terminal(c.text, c.keep_newlines);
    EXPECT_EQ(shown, c.shown);
    EXPECT_TRUE(is_valid_utf8(shown));
    EXPECT_FALSE(has_control_characters(c.keep_newlines ? std::string() : shown));
    // Escaping what is already shown changes nothing more.
    EXPECT_EQ(escape_for_terminal(shown, c.keep_newlines), shown);
  }
}

TEST(QuoteForTerminal, QuotesEscapesAndCutsAtACharacter) {
  struct Case {
    std::string text;
    std::size_t limit;
    std::string quoted;
  };
  const Case cases[] = {
      {"plain", 0, "\"plain\""},
      {"say \"hi\" \\ there", 0, "\"say \\\"hi\\\" \\\\ there\""},
      {"\x1b[2J", 0, "\"\\x1b[2J\""},
      {"abcdef", 3, "\"abc…\""},
      {"abc", 3, "\"abc\""},
      {"\u00e9\u00e9\u00e9", 2, "\"\u00e9…\""},  // é is two bytes: cut after the first, whole
      {"", 0, "\"\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(quote_for_terminal(c.text, c.limit), c.quoted);
  }
}

}  // namespace
}  // namespace companyos
