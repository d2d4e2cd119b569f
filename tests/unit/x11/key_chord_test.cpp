#include "x11/key_chord.h"

#include <X11/XF86keysym.h>
#include <X11/keysym.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

namespace companyos::x11 {
namespace {

// Stands in for XStringToKeysym, so these tests need no X library behaviour.
std::optional<Keysym> fake_x_lookup(std::string_view name) {
  static const std::map<std::string, Keysym, std::less<>> kNames{
      {"Return", XK_Return},
      {"plus", XK_plus},
      {"Prior", XK_Prior},
      {"Insert", XK_Insert},
      {"XF86AudioMute", XF86XK_AudioMute},
      {"Control_L", XK_Control_L},
      {"KP_Enter", XK_KP_Enter},
  };
  auto found = kNames.find(name);
  if (found == kNames.end()) return std::nullopt;
  return found->second;
}

constexpr Modifiers kNone{};
constexpr Modifiers kCtrl{.ctrl = true};
constexpr Modifiers kAlt{.alt = true};
constexpr Modifiers kSuper{.super = true};
constexpr Modifiers kCtrlShift{.ctrl = true, .shift = true};
constexpr Modifiers kCtrlAlt{.ctrl = true, .alt = true};
constexpr Modifiers kAll{.ctrl = true, .alt = true, .shift = true, .super = true};

TEST(ParseKeyChord, AcceptsModifiersAndKeysInEverySpelling) {
  struct Case {
    std::string_view text;
    KeyChord expected;
  };
  const Case cases[] = {
      {"ctrl+shift+t", {kCtrlShift, XK_t}},
      {"Return", {kNone, XK_Return}},
      {"return", {kNone, XK_Return}},
      {"enter", {kNone, XK_Return}},
      {"ENTER", {kNone, XK_Return}},
      {"alt+F4", {kAlt, XK_F4}},
      {"alt+f4", {kAlt, XK_F4}},
      {"super+l", {kSuper, XK_l}},
      {"meta+l", {kSuper, XK_l}},
      {"Win+l", {kSuper, XK_l}},
      {"CTRL+T", {kCtrl, XK_T}},
      {"Control+t", {kCtrl, XK_t}},
      {"cmdorctrl+s", {kCtrl, XK_s}},
      {"CmdOrCtrl+s", {kCtrl, XK_s}},
      {"shift+ctrl+t", {kCtrlShift, XK_t}},
      {"ctrl + shift + t", {kCtrlShift, XK_t}},
      {"esc", {kNone, XK_Escape}},
      {"Escape", {kNone, XK_Escape}},
      {"tab", {kNone, XK_Tab}},
      {"space", {kNone, XK_space}},
      {"backspace", {kNone, XK_BackSpace}},
      {"del", {kNone, XK_Delete}},
      {"delete", {kNone, XK_Delete}},
      {"up", {kNone, XK_Up}},
      {"Down", {kNone, XK_Down}},
      {"left", {kNone, XK_Left}},
      {"right", {kNone, XK_Right}},
      {"home", {kNone, XK_Home}},
      {"end", {kNone, XK_End}},
      {"pageup", {kNone, XK_Page_Up}},
      {"PageDown", {kNone, XK_Page_Down}},
      {"f1", {kNone, XK_F1}},
      {"F12", {kNone, XK_F12}},
      {"f24", {kNone, XK_F24}},
      {"ctrl+alt+Delete", {kCtrlAlt, XK_Delete}},
      {"ctrl+alt+shift+super+x", {kAll, XK_x}},
      {"1", {kNone, XK_1}},
      {"ctrl+,", {kCtrl, XK_comma}},
      {"é", {kNone, XK_eacute}},
      {"€", {kNone, 0x010020AC}},
      {"ctrl+plus", {kCtrl, XK_plus}},
      {"Insert", {kNone, XK_Insert}},
      {"XF86AudioMute", {kNone, XF86XK_AudioMute}},
      {"shift+KP_Enter", {{.shift = true}, XK_KP_Enter}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    auto chord = parse_key_chord(c.text, fake_x_lookup);
    ASSERT_TRUE(chord.ok()) << chord.error().message;
    EXPECT_EQ(*chord, c.expected);
  }
}

TEST(ParseKeyChord, RefusesBadInputNamingTheCulprit) {
  struct Case {
    std::string_view text;
    std::string_view message_mentions;
  };
  const Case cases[] = {
      {"", "empty"},
      {"   ", "empty"},
      {"+", "empty part"},
      {"ctrl+", "empty part"},
      {"+t", "empty part"},
      {"ctrl++t", "empty part"},
      {"ctrl++", "empty part"},
      {"ctrl+ +t", "empty part"},
      {"ctrl+ctrl+t", "repeats the modifier 'ctrl'"},
      {"ctrl+control+t", "repeats the modifier 'control'"},
      {"cmdorctrl+ctrl+t", "repeats the modifier 'ctrl'"},
      {"super+meta+l", "repeats the modifier 'meta'"},
      {"shift+SHIFT+a", "repeats the modifier 'SHIFT'"},
      {"ctrl+shift", "no key"},
      {"alt", "no key"},
      {"t+ctrl", "'t' in 't+ctrl' is not a modifier"},
      {"hyper+x", "'hyper' in 'hyper+x' is not a modifier"},
      {"ctrl+Foo", "unknown key 'Foo'"},
      {"ctrl+return2", "unknown key 'return2'"},
      {"f0", "unknown key 'f0'"},
      {"f25", "unknown key 'f25'"},
      {"F01", "unknown key 'F01'"},
      {"ab", "unknown key 'ab'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    auto chord = parse_key_chord(c.text, fake_x_lookup);
    ASSERT_FALSE(chord.ok());
    EXPECT_EQ(chord.error().code, ErrorCode::kInvalidArgs);
    EXPECT_NE(chord.error().message.find(c.message_mentions), std::string::npos)
        << chord.error().message;
    EXPECT_EQ(chord.error().details.value("chord", ""), c.text);
  }
}

TEST(ParseKeyChord, UnknownKeyIsNamedInDetails) {
  auto chord = parse_key_chord("ctrl+alt+Nonsense", fake_x_lookup);
  ASSERT_FALSE(chord.ok());
  EXPECT_EQ(chord.error().details.value("key", ""), "Nonsense");
  EXPECT_FALSE(chord.error().suggestion.empty());
}

TEST(ParseKeyChord, RejectsInvalidUtf8AsAnUnknownKey) {
  auto chord = parse_key_chord("ctrl+\xC3", fake_x_lookup);
  ASSERT_FALSE(chord.ok());
  EXPECT_EQ(chord.error().code, ErrorCode::kInvalidArgs);
}

TEST(ParseKeyChord, ControlCharacterIsNotAKey) {
  auto chord = parse_key_chord("ctrl+\x01", fake_x_lookup);
  ASSERT_FALSE(chord.ok());
  EXPECT_EQ(chord.error().code, ErrorCode::kInvalidArgs);
}

TEST(KeyChordToString, SpellsModifiersInCanonicalOrder) {
  struct Case {
    std::string_view text;
    std::string_view canonical;
  };
  const Case cases[] = {
      {"shift+ctrl+t", "ctrl+shift+t"},
      {"super+alt+control+Delete", "ctrl+alt+super+Delete"},
      {"enter", "Return"},
      {"cmdorctrl+backspace", "ctrl+BackSpace"},
      {"ctrl+,", "ctrl+comma"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    auto chord = parse_key_chord(c.text, fake_x_lookup);
    ASSERT_TRUE(chord.ok());
    EXPECT_EQ(to_string(*chord), c.canonical);
  }
}

}  // namespace
}  // namespace companyos::x11
