// Key chords as people write them: "ctrl+shift+t", "Return", "alt+F4", "super+l".
// Modifiers come first, then exactly one key, joined by '+'.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "companyos/result.h"
#include "x11/keysyms.h"

namespace companyos::x11 {

struct Modifiers {
  bool ctrl = false;
  bool alt = false;
  bool shift = false;
  bool super = false;
  friend bool operator==(const Modifiers&, const Modifiers&) = default;
};

struct KeyChord {
  Modifiers modifiers;
  Keysym key = 0;
  friend bool operator==(const KeyChord&, const KeyChord&) = default;
};

// Resolves an X keysym name; injectable so that parsing can be tested without Xlib.
using KeysymLookup = std::function<std::optional<Keysym>(std::string_view name)>;

// Modifiers (case-insensitive): ctrl/control, alt, shift, super/meta/win, cmdorctrl (ctrl
// on Linux). The key: a friendly name (enter, esc, f5, …), a single character, or an X
// keysym name. INVALID_ARGS for empty parts, a repeated modifier, a missing key, or an
// unknown one (named in the message and in details.key).
Result<KeyChord> parse_key_chord(std::string_view text,
                                 const KeysymLookup& x_keysym = x_keysym_from_name);

// The canonical spelling, e.g. "ctrl+alt+Delete".
std::string to_string(const KeyChord& chord);

}  // namespace companyos::x11
