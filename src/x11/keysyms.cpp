#include "x11/keysyms.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/text.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

constexpr std::array<std::pair<std::string_view, Keysym>, 19> kFriendlyNames{{
    {"enter", XK_Return},
    {"return", XK_Return},
    {"esc", XK_Escape},
    {"escape", XK_Escape},
    {"tab", XK_Tab},
    {"space", XK_space},
    {"backspace", XK_BackSpace},
    {"delete", XK_Delete},
    {"del", XK_Delete},
    {"up", XK_Up},
    {"down", XK_Down},
    {"left", XK_Left},
    {"right", XK_Right},
    {"home", XK_Home},
    {"end", XK_End},
    {"pageup", XK_Page_Up},
    {"pagedown", XK_Page_Down},
    {"pgup", XK_Page_Up},
    {"pgdn", XK_Page_Down},
}};

constexpr int kHighestFunctionKey = 24;

// "f1"…"f24" in either case.
std::optional<Keysym> function_key(std::string_view name) {
  if (name.size() < 2 || (name[0] != 'f' && name[0] != 'F')) return std::nullopt;
  int number = 0;
  const auto* end = name.data() + name.size();
  const auto [stop, error] = std::from_chars(name.data() + 1, end, number);
  if (error != std::errc() || stop != end || name[1] == '0') return std::nullopt;
  if (number < 1 || number > kHighestFunctionKey) return std::nullopt;
  return static_cast<Keysym>(XK_F1 + (number - 1));
}

}  // namespace

std::optional<Keysym> friendly_keysym(std::string_view name) {
  for (const auto& [friendly, keysym] : kFriendlyNames) {
    if (equals_ignoring_ascii_case(name, friendly)) return keysym;
  }
  return function_key(name);
}

std::optional<Keysym> keysym_for_code_point(char32_t code_point) {
  if (code_point == U'\n') return XK_Return;
  if (code_point == U'\t') return XK_Tab;
  const bool c0_control = code_point < 0x20 || code_point == 0x7F;
  const bool c1_control = code_point >= 0x80 && code_point < 0xA0;
  if (c0_control || c1_control || code_point > 0x10FFFF) return std::nullopt;
  if (code_point <= 0xFF) return static_cast<Keysym>(code_point);
  constexpr Keysym kUnicodeKeysymBase = 0x01000000;
  return kUnicodeKeysymBase | static_cast<Keysym>(code_point);
}

std::optional<Keysym> x_keysym_from_name(std::string_view name) {
  const std::string terminated(name);
  const KeySym keysym = XStringToKeysym(terminated.c_str());
  if (keysym == NoSymbol) return std::nullopt;
  return static_cast<Keysym>(keysym);
}

namespace {

// XKeysymToString names a Unicode keysym without a name of its own "U<hex digits>" in a
// string it mallocs anew on every call and never frees (libX11's KeysymStr.c; its table
// names are static). Only that form is the caller's to free: exactly "U", upper-case hex,
// and the keysym's own code point.
bool is_allocated_unicode_name(Keysym keysym, const char* name) {
  constexpr Keysym kUnicodeKeysymBase = 0x01000000;
  if ((keysym & 0xFF000000) != kUnicodeKeysymBase || name[0] != 'U' || name[1] == '\0') {
    return false;
  }
  Keysym value = 0;
  for (const char* digit = name + 1; *digit != '\0'; ++digit) {
    const char c = *digit;
    if (c >= '0' && c <= '9') {
      value = value * 16 + static_cast<Keysym>(c - '0');
    } else if (c >= 'A' && c <= 'F') {
      value = value * 16 + static_cast<Keysym>(c - 'A' + 10);
    } else {
      return false;
    }
    if (value > 0xFFFFFF) return false;
  }
  return value == (keysym & 0xFFFFFF);
}

}  // namespace

std::string keysym_name(Keysym keysym) {
  if (char* name = XKeysymToString(keysym)) {
    std::string text(name);
    if (is_allocated_unicode_name(keysym, name)) std::free(name);
    return text;
  }
  std::array<char, 16> hex{};
  std::snprintf(hex.data(), hex.size(), "0x%x", static_cast<unsigned>(keysym));
  return hex.data();
}

}  // namespace companyos::x11
