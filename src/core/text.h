// Checks on user-given text shared by the modules that validate it (requests, launch
// targets, automation definitions, action arguments, typed text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace companyos {

// Strict UTF-8 (RFC 3629): overlong forms, surrogates (U+D800–U+DFFF), values past
// U+10FFFF and truncated sequences are refused. NUL is a character like any other here;
// noncharacters such as U+FFFE are accepted, as GLib's g_utf8_validate accepts them.
bool is_valid_utf8(std::string_view text);

// Valid UTF-8 with no NUL byte: text that can travel as a C or D-Bus string. The same
// text g_utf8_validate accepts when given its length.
bool is_valid_utf8_without_nul(std::string_view text);

// The Unicode code points of `text`; nullopt when it is not valid UTF-8 (as is_valid_utf8).
std::optional<std::u32string> decode_utf8(std::string_view text);

// Equal but for the case of ASCII letters (as g_ascii_strcasecmp, without the C strings):
// app names, WM_CLASS, key and month names. Other bytes must be equal.
bool equals_ignoring_ascii_case(std::string_view a, std::string_view b);
// The text with ASCII letters in lower case, other bytes as they are.
std::string ascii_lowercase(std::string_view text);
// The text without ASCII white space (space, tab, newline, CR, FF, VT) at either end.
std::string_view trim_ascii_space(std::string_view text);

// C0 controls, DEL, and C1 controls as UTF-8 encodes them (0xC2 0x80–0x9F).
inline bool has_control_characters(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) return true;
    if (byte == 0xC2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9F) return true;
    }
  }
  return false;
}

// Text from outside (an app's names and values, a page's title, a clipboard) made safe to
// show on a terminal or to a model: C0 controls, DEL and C1 controls, and the bidi
// overrides, isolates and marks (U+061C, U+200E/F, U+202A–E, U+2066–9) become visible
// escapes (\n \t \r, \x1b, \u0085, \u202e), and a byte that is not UTF-8 becomes \xHH.
// With keep_newlines, '\n' stays a line break (for text that is laid out in lines).
// Everything else, backslashes included, is copied as it is.
std::string escape_for_terminal(std::string_view text, bool keep_newlines = false);

// TEXT in double quotes as an outline or an agent reads it: cut after LIMIT bytes
// (0: never; never inside a character, and marked "…"), its quotes and backslashes
// escaped, then escape_for_terminal — so an app's string can neither end the quote nor
// drive the terminal that shows it.
std::string quote_for_terminal(std::string_view text, std::size_t limit = 0);

// "1,048,576": a count as people read it.
std::string with_thousands(std::int64_t count);

// The characters of UTF-8 TEXT: its bytes that do not continue a character (a malformed
// text is counted all the same, never refused here).
std::size_t count_characters(std::string_view text);

}  // namespace companyos
