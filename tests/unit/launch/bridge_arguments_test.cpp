#include "launch/bridge_arguments.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos::launch {
namespace {

TEST(CheckAppName, AcceptsOnlyTheStrictPattern) {
  struct Case {
    std::string name;
    bool ok;
  };
  const Case cases[] = {
      {"mousepad", true},
      {"org.gnome.Calculator", true},
      {"gimp-2.10", true},
      {"g++_tool", true},
      {"7zip", true},
      {"A", true},
      {std::string(128, 'a'), true},
      {std::string(129, 'a'), false},
      {"", false},
      {"-rf", false},
      {".hidden", false},
      {"_x", false},
      {"+x", false},
      {"two words", false},
      {"a;b", false},
      {"a/b", false},
      {"../x", false},
      {"$(id)", false},
      {"a\nb", false},
      {std::string("a\0b", 3), false},
      {"caf\xC3\xA9", false},
      {"--app", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Status checked = check_app_name(c.name);
    EXPECT_EQ(checked.ok(), c.ok);
    if (!checked.ok()) {
      EXPECT_EQ(checked.error().code, ErrorCode::kInvalidArgs);
      EXPECT_EQ(checked.error().details.at("reason"), "invalid_app_name");
    }
  }
}

TEST(CheckKeyChord, AcceptsOnlyTheStrictPattern) {
  struct Case {
    std::string chord;
    bool ok;
  };
  const Case cases[] = {
      {"Return", true},
      {"a", true},
      {"7", true},
      {"ctrl+s", true},
      {"Ctrl+Shift+T", true},
      {"ctrl+alt+shift+super+F12", true},
      {"control+meta+win+cmdorctrl+x", true},
      {"alt+F4", true},
      {"KP_Enter", true},
      {"XF86AudioPlay", true},
      {"", false},
      {"ctrl+", false},
      {"+s", false},
      {"ctrl++", false},
      {"ctrl+alt+shift+super+meta+x", false},  // five modifiers
      {"hyper+x", false},
      {"ctrl s", false},
      {"ctrl-s", false},
      {"ctrl+;", true},
      {"/", true},
      {".", true},
      {"-", true},
      {"_", true},
      {"shift+~", true},
      {"ctrl+\\", true},
      {"+", false},  // '+' is written "plus"
      {" ", false},
      {"ctrl+ ", false},
      {"ctrl+//", false},
      {"é", false},  // one character outside ASCII: its keysym name, e.g. eacute
      {"_x", false},
      {"F" + std::string(40, '1'), false},
      {"ctrl+s\n", false},
      {"ctrl+s;reboot", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.chord);
    const Status checked = check_key_chord(c.chord);
    EXPECT_EQ(checked.ok(), c.ok);
    if (!checked.ok()) {
      EXPECT_EQ(checked.error().details.at("reason"), "invalid_chord");
    }
  }
}

}  // namespace
}  // namespace companyos::launch
