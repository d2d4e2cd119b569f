#include "a11y/act/action_readback.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(ReadBack, NumbersParseOnlyWhenTheWholeTextIsOne) {
  struct Case {
    const char* text;
    std::optional<double> number;
  };
  const Case cases[] = {
      {"42", 42},       {"-3.5", -3.5},        {"0", 0},           {"1e3", 1000},
      {"0.25", 0.25},   {".5", 0.5},           {"", std::nullopt}, {" 42", std::nullopt},
      {"42 ", std::nullopt}, {"42abc", std::nullopt}, {"+1", std::nullopt},
      {"0x10", std::nullopt},
      {"inf", std::nullopt}, {"nan", std::nullopt}, {"1e999", std::nullopt},
      {"1,5", std::nullopt}, {"--1", std::nullopt}, {"forty", std::nullopt},
  };
  for (const Case& c : cases) {
    const auto parsed = parse_number(c.text);
    EXPECT_EQ(parsed, c.number) << "'" << c.text << "'";
  }
}

TEST(ReadBack, NumbersMatchWithinARelativeTolerance) {
  EXPECT_TRUE(numbers_match(42, 42));
  EXPECT_TRUE(numbers_match(0.1 + 0.2, 0.3));
  EXPECT_TRUE(numbers_match(1e12, 1e12 + 1e-3));
  EXPECT_FALSE(numbers_match(42, 42.5));
  EXPECT_FALSE(numbers_match(2.5, 3));  // a spin button without digits rounds: unverified
  EXPECT_FALSE(numbers_match(0, 1e-6));
}

TEST(ReadBack, TextAfterInsertCountsCharactersNotBytes) {
  struct Case {
    const char* before;
    int offset;
    const char* inserted;
    const char* after;
  };
  const Case cases[] = {
      {"hello", 0, "X", "Xhello"},   {"hello", 5, "X", "helloX"},   {"hello", 2, "XY", "heXYllo"},
      {"héllo", 2, "Ä", "héÄllo"},   {"€€", 1, "$", "€$€"},         {"", 0, "abc", "abc"},
      {"abc", -1, "Z", "abcZ"},      {"abc", 9, "Z", "abcZ"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(text_after_insert(c.before, c.offset, c.inserted), c.after)
        << c.before << " @" << c.offset;
  }
  EXPECT_EQ(character_count("héllo €"), 7u);
  EXPECT_EQ(character_count(""), 0u);
}

TEST(ReadBack, TextMustMatchExactlyAndSecretTextIsNeverShown) {
  struct Case {
    const char* expected;
    std::optional<std::string> read;
    bool matched;
  };
  const Case cases[] = {
      {"a $b; \"c\" ü", std::string("a $b; \"c\" ü"), true},
      {"abc", std::string("abc "), false},
      {"abc", std::string("ABC"), false},
      {"", std::string(""), true},
      {"abc", std::nullopt, false},
  };
  for (const Case& c : cases) {
    const Verification plain = verify_text(c.expected, c.read, false);
    EXPECT_EQ(plain.matched, c.matched) << c.expected;
    EXPECT_EQ(plain.check, "text");
    EXPECT_EQ(plain.expected, Reading(std::string(c.expected)));
    EXPECT_EQ(plain.read, c.read ? Reading(*c.read) : Reading());

    // Secret text is held as counts only, so no rendering of the result can show it.
    const Verification secret = verify_text(c.expected, c.read, true);
    EXPECT_EQ(secret.matched, c.matched) << c.expected;
    EXPECT_EQ(secret.expected, Reading(Characters{character_count(c.expected)}));
    EXPECT_EQ(secret.read, c.read ? Reading(Characters{character_count(*c.read)}) : Reading());
  }
}

TEST(ReadBack, PasswordsCompareCharacterCounts) {
  EXPECT_TRUE(verify_character_count(6, 6).matched);
  EXPECT_FALSE(verify_character_count(6, 5).matched);
  EXPECT_FALSE(verify_character_count(0, -1).matched);
  EXPECT_FALSE(verify_character_count(3, std::nullopt).matched);
  EXPECT_EQ(verify_character_count(6, 6).check, "characters");
}

TEST(ReadBack, StatesAndSelection) {
  const StateSet checked = StateSet{1} << ATSPI_STATE_CHECKED;
  struct Case {
    int state;
    bool wanted;
    std::optional<StateSet> read;
    bool matched;
  };
  const Case cases[] = {
      {ATSPI_STATE_CHECKED, true, checked, true},
      {ATSPI_STATE_CHECKED, false, checked, false},
      {ATSPI_STATE_CHECKED, false, StateSet{0}, true},
      {ATSPI_STATE_EXPANDED, true, checked, false},
      {ATSPI_STATE_EXPANDED, true, std::nullopt, false},
  };
  for (const Case& c : cases) {
    const Verification v = verify_state(c.state, c.wanted, c.read);
    EXPECT_EQ(v.matched, c.matched) << c.state << " " << c.wanted;
    EXPECT_EQ(v.check, "state");
  }
  EXPECT_EQ(verify_state(ATSPI_STATE_CHECKED, true, checked).expected, Reading(StatePresence{"checked", true}));
  EXPECT_EQ(verify_state(ATSPI_STATE_CHECKED, false, checked).read, Reading(StatePresence{"checked", true}));
  EXPECT_EQ(verify_selected(2, false).read, Reading(ChildSelection{2, false}));
  EXPECT_TRUE(verify_selected(1, true).matched);
  EXPECT_FALSE(verify_selected(1, false).matched);
  EXPECT_FALSE(verify_selected(1, std::nullopt).matched);
  EXPECT_TRUE(verify_number(42, 42.0).matched);
  EXPECT_FALSE(verify_number(42, std::nullopt).matched);
}

}  // namespace
}  // namespace companyos::a11y
