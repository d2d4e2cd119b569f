#include "x11/keysyms.h"

#include <X11/keysym.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <string>

namespace companyos::x11 {
namespace {

TEST(FriendlyKeysym, KnowsTheFriendlyNamesOnly) {
  struct Case {
    std::string_view name;
    std::optional<Keysym> expected;
  };
  const Case cases[] = {
      {"enter", XK_Return},        {"Return", XK_Return},   {"ESC", XK_Escape},
      {"pagedown", XK_Page_Down},  {"F9", XK_F9},           {"f24", XK_F24},
      {"f0", std::nullopt},        {"f25", std::nullopt},   {"f", std::nullopt},
      {"f1x", std::nullopt},       {"f-1", std::nullopt},   {"", std::nullopt},
      {"BackSpace", XK_BackSpace}, {"Prior", std::nullopt}, {"t", std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    EXPECT_EQ(friendly_keysym(c.name), c.expected);
  }
}

TEST(KeysymForCodePoint, MapsLatin1AndUnicodeAndRefusesControls) {
  struct Case {
    char32_t code_point;
    std::optional<Keysym> expected;
  };
  const Case cases[] = {
      {U'a', XK_a},
      {U'Z', XK_Z},
      {U' ', XK_space},
      {U'~', XK_asciitilde},
      {U'\u00e9', XK_eacute},
      {U'\u00ff', XK_ydiaeresis},
      {U'\u20ac', 0x010020AC},
      {U'\U0001F600', 0x0101F600},
      {U'\n', XK_Return},
      {U'\t', XK_Tab},
      {0x00, std::nullopt},
      {0x1B, std::nullopt},
      {0x7F, std::nullopt},
      {0x85, std::nullopt},
      {0x110000, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(static_cast<unsigned>(c.code_point));
    EXPECT_EQ(keysym_for_code_point(c.code_point), c.expected);
  }
}

TEST(KeysymName, UsesXNamesAndFallsBackToHex) {
  EXPECT_EQ(keysym_name(XK_BackSpace), "BackSpace");
  EXPECT_EQ(keysym_name(XK_t), "t");
  EXPECT_EQ(keysym_name(0x010020AC), "U20AC");
  EXPECT_EQ(keysym_name(0x00000c00), "0xc00");
}

// Xlib mallocs the "U<hex>" name of an unnamed Unicode keysym on every call and never
// frees it; a daemon naming keys for years must not keep those bytes.
TEST(KeysymName, NamingUnicodeKeysymsKeepsNoMemory) {
  EXPECT_EQ(keysym_name(0x0101F600), "U0001F600");
  EXPECT_EQ(keysym_name(0x01000587), "Armenian_ligature_ew");  // a table name, never freed
  const auto before = static_cast<long long>(mallinfo2().uordblks);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(keysym_name(0x010020AC), "U20AC");
  // 10,000 lost names would be at least 80,000 bytes.
  EXPECT_LT(static_cast<long long>(mallinfo2().uordblks) - before, 8000);
}

TEST(XKeysymFromName, IsCaseSensitiveLikeX) {
  EXPECT_EQ(x_keysym_from_name("Return"), Keysym{XK_Return});
  EXPECT_EQ(x_keysym_from_name("NoSuchKeysymName"), std::nullopt);
  EXPECT_EQ(x_keysym_from_name(""), std::nullopt);
}

}  // namespace
}  // namespace companyos::x11
