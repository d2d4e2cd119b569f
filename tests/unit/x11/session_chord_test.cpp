#include "x11/session_chord.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos::x11 {
namespace {

// Real keysym names through Xlib: the daemon parses chords the same way.
bool session_chord(std::string_view text) {
  auto chord = parse_key_chord(text);
  EXPECT_TRUE(chord.ok()) << text << ": " << chord.error().message;
  return chord.ok() && is_session_chord(*chord);
}

TEST(IsSessionChord, CatchesEverySpellingAndOrder) {
  const std::string_view blocked[] = {
      "ctrl+alt+BackSpace",
      "ctrl+alt+backspace",
      "alt+ctrl+backspace",
      "Control+Alt+BACKSPACE",
      "cmdorctrl+alt+BackSpace",
      "ctrl+alt+Delete",
      "ctrl+alt+del",
      "alt+control+DELETE",
      "ctrl+alt+KP_Delete",
      "ctrl+alt+F1",
      "ctrl+alt+f1",
      "alt+ctrl+F7",
      "ctrl+alt+f12",
      "CTRL+ALT+F5",
      "super+l",
      "super+L",
      "meta+l",
      "win+l",
      "Win+L",
      "ctrl+alt+l",
      // Extra modifiers do not make a session chord safe.
      "ctrl+alt+shift+Delete",
      "ctrl+alt+super+F2",
      "shift+super+l",
      // Keys that act without modifiers.
      "Terminate_Server",
      "XF86Switch_VT_1",
      "XF86Switch_VT_12",
      "XF86LogOff",
      "XF86ScreenSaver",
      "XF86PowerOff",
      "ctrl+XF86Switch_VT_3",
  };
  for (std::string_view text : blocked) {
    SCOPED_TRACE(std::string(text));
    EXPECT_TRUE(session_chord(text));
  }
}

TEST(IsSessionChord, LeavesOrdinaryChordsAlone) {
  const std::string_view allowed[] = {
      "ctrl+BackSpace",
      "alt+BackSpace",
      "BackSpace",
      "Delete",
      "ctrl+Delete",
      "shift+Delete",
      "alt+Delete",
      "F1",
      "ctrl+F1",
      "alt+F4",
      "alt+F1",
      "ctrl+alt+F13",
      "ctrl+alt+t",
      "ctrl+alt+k",
      "l",
      "ctrl+l",
      "alt+l",
      "shift+l",
      "super+k",
      "super+F1",
      "ctrl+shift+t",
      "Return",
      "ctrl+alt+Return",
  };
  for (std::string_view text : allowed) {
    SCOPED_TRACE(std::string(text));
    EXPECT_FALSE(session_chord(text));
  }
}

}  // namespace
}  // namespace companyos::x11
