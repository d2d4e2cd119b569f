// Keysyms (X11 key symbols) from the names people type and from characters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace companyos::x11 {

using Keysym = std::uint32_t;

// Friendly names, case-insensitive: enter/return, esc/escape, tab, space, backspace,
// delete/del, up, down, left, right, home, end, pageup, pagedown, f1…f24.
std::optional<Keysym> friendly_keysym(std::string_view name);

// The keysym that types `code_point`: Latin-1 characters map to themselves, the rest of
// Unicode to the 0x01000000 range; '\n' is Return and '\t' is Tab. nullopt for other
// control characters.
std::optional<Keysym> keysym_for_code_point(char32_t code_point);

// An X keysym name, case as X spells it ("Return", "XF86AudioMute"), through Xlib.
std::optional<Keysym> x_keysym_from_name(std::string_view name);

// The X name of `keysym` ("BackSpace", "t", "U20AC"), or its hex value when it has none.
std::string keysym_name(Keysym keysym);

}  // namespace companyos::x11
