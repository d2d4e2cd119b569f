// XTest input end to end: pointer into the fixture's entry, typed text (characters the
// keymap lacks included), Tab and Return to its "Write effect" button. The effect file the
// fixture writes is the outside proof of what arrived. Typing such characters borrows spare
// keycodes; afterwards the keymap, as a fresh connection reads it, must be as it was.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "desktop_test.h"
#include "fixture_app.h"
#include "wait_until.h"
#include "x11/activation.h"
#include "x11/capture.h"
#include "x11/key_chord.h"
#include "x11/keyboard.h"
#include "x11/pointer.h"
#include "x11/xlib.h"

namespace companyos::x11::testing {
namespace {

using std::chrono::milliseconds;

class Input : public DesktopTest {
 protected:
  Status press(std::string_view chord_text) {
    auto chord = parse_key_chord(chord_text);
    if (!chord) return std::move(chord).take_error();
    return send_key_chord(connection(), *chord);
  }
};

std::optional<std::string> file_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The entry is the first white band from the top of the window (Adwaita draws entries
// white on a light grey window), which finds it whatever the font size is.
std::optional<std::pair<int, int>> entry_centre(Connection& connection, const Bounds& bounds) {
  auto image = capture_area(connection, bounds);
  if (!image) return std::nullopt;
  const int x = bounds.width / 2;
  const auto white = [&](int y) {
    const auto* pixel = &image->rgb[(static_cast<std::size_t>(y) * image->width + x) * 3];
    return pixel[0] == 255 && pixel[1] == 255 && pixel[2] == 255;
  };
  constexpr int kMinimumEntryHeight = 8;
  for (int top = 0; top < bounds.height; ++top) {
    if (!white(top)) continue;
    int bottom = top;
    while (bottom + 1 < bounds.height && white(bottom + 1)) ++bottom;
    if (bottom - top + 1 >= kMinimumEntryHeight) {
      return std::pair{bounds.x + x, bounds.y + (top + bottom) / 2};
    }
    top = bottom;
  }
  return std::nullopt;
}

std::vector<KeySym> server_keymap() {
  auto fresh = Connection::open();
  if (!fresh) return {};
  Display* display = fresh->display();
  int min_keycode = 0;
  int max_keycode = 0;
  XDisplayKeycodes(display, &min_keycode, &max_keycode);
  int per_keycode = 0;
  const int count = max_keycode - min_keycode + 1;
  const std::unique_ptr<KeySym, int (*)(void*)> mapping(
      XGetKeyboardMapping(display, static_cast<KeyCode>(min_keycode), count, &per_keycode), &XFree);
  if (!mapping) return {};
  return std::vector<KeySym>(mapping.get(), mapping.get() + count * per_keycode);
}

TEST_F(Input, TypesIntoTheEntryAndPressesWriteEffect) {
  const auto effect = dir() / "effect.txt";
  FixtureApp app({"Input window", "CompanyosInput", effect});
  auto window = app.wait_for_window(connection());
  ASSERT_TRUE(window.has_value());
  ASSERT_TRUE(activate_window(connection(), window->id, milliseconds(5000)).ok());

  // GTK draws after mapping; wait until the entry is on screen.
  std::optional<std::pair<int, int>> entry;
  ASSERT_TRUE(wait_until([&] {
    return (entry = entry_centre(connection(), window->bounds)).has_value();
  })) << "no entry found in the fixture window";

  // Move the focus off the entry first, so that only the click can bring it back.
  ASSERT_TRUE(press("Tab").ok());
  ASSERT_TRUE(click_at(connection(), entry->first, entry->second).ok());

  // "é" and "€" are not on the session's US keymap: they go through a borrowed keycode.
  const std::string text = "Hello, World! é€ 42";
  ASSERT_TRUE(type_text(connection(), "draft").ok());
  ASSERT_TRUE(press("ctrl+a").ok());  // the next text replaces the selection
  const auto started = std::chrono::steady_clock::now();
  auto typed = type_text(connection(), text);
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(typed.ok()) << typed.error().message;
  std::cout << "typing " << text.size() << " bytes took "
            << std::chrono::duration_cast<milliseconds>(took).count() << " ms\n";

  ASSERT_TRUE(press("Tab").ok());
  ASSERT_TRUE(press("Return").ok());
  std::optional<std::string> written;
  EXPECT_TRUE(wait_until([&] { return (written = file_text(effect)).has_value(); }))
      << "the fixture wrote no effect file";
  EXPECT_EQ(written, text);
}

TEST_F(Input, RefusesBadInputBeforeSendingAnything) {
  struct Case {
    std::string_view name;
    Status result;
  };
  Case cases[] = {
      {"invalid UTF-8", type_text(connection(), "ok\xC3")},
      {"control character", type_text(connection(), "a\x01")},
      {"escape character", type_text(connection(), "\x1b[A")},
      {"point left of screen", move_pointer(connection(), -1, 10)},
      {"point below screen", move_pointer(connection(), 10, connection().screen_height())},
      {"button 0", click_button(connection(), 0)},
      {"button 99", click_at(connection(), 10, 10, 99)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    ASSERT_FALSE(c.result.ok());
    EXPECT_EQ(c.result.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(c.result.error().retry, Retry::kSafe);
  }
}

TEST_F(Input, KeymapIsRestoredAfterTypingMissingCharacters) {
  FixtureApp app({"Keymap window", "CompanyosKeymap", {}});
  auto window = app.wait_for_window(connection());
  ASSERT_TRUE(window.has_value());
  ASSERT_TRUE(activate_window(connection(), window->id, std::chrono::seconds(5)).ok());

  const auto before = server_keymap();
  ASSERT_FALSE(before.empty());
  ASSERT_TRUE(type_text(connection(), "é€ñ ü").ok());
  EXPECT_EQ(server_keymap(), before);
}

}  // namespace
}  // namespace companyos::x11::testing
