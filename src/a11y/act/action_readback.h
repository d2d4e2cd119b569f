// Read-back rules: what an action's effect must look like, read live afterwards, to count
// as verified. Text must match byte for byte; the text of password elements is never read
// (their CharacterCount is compared instead), and text of requests marked secret is
// compared but never shown; numbers match within a relative 1e-9; states must show the
// asked value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "a11y/vocabulary.h"

namespace companyos::a11y {

// A count of characters: what a password field or secret text shows instead of its text.
struct Characters {
  std::size_t count = 0;
  friend bool operator==(const Characters&, const Characters&) = default;
};
struct StatePresence {
  std::string state;  // its nick, e.g. "checked"
  bool present = false;
  friend bool operator==(const StatePresence&, const StatePresence&) = default;
};
struct ChildSelection {
  int index = 0;
  bool selected = false;
  friend bool operator==(const ChildSelection&, const ChildSelection&) = default;
};
// What was asked or read: nothing (monostate: nothing came), text, a number, a count
// (CharacterCount), a count of secret characters, a state, or a child's selection.
using Reading = std::variant<std::monostate, std::string, double, std::int64_t, Characters, StatePresence,
                             ChildSelection>;

struct Verification {
  bool matched = false;
  std::string check;  // "text", "characters", "value", "state", "selected"
  Reading expected;   // never secret text
  Reading read;       // never secret text
  friend bool operator==(const Verification&, const Verification&) = default;
};

// A number for Value: the whole text is one finite decimal or exponent form ("42", "-0.5",
// "1e3"); nullopt for "", spaces, trailing text, hex, inf and nan.
std::optional<double> parse_number(std::string_view text);
bool numbers_match(double asked, double read);

// Characters (Unicode code points) of valid UTF-8 text.
std::size_t character_count(std::string_view text);
// The text after inserting at a character offset; an offset outside 0..length inserts at
// the end (a toolkit without a caret reports -1).
std::string text_after_insert(std::string_view before, int offset, std::string_view inserted);

// secret: the read text is compared but never copied into the result.
Verification verify_text(std::string_view expected, const std::optional<std::string>& read,
                         bool secret);
Verification verify_character_count(std::size_t expected, std::optional<int> read);
Verification verify_number(double expected, std::optional<double> read);
// The state (an AtspiStateType) must be present (wanted) or absent (!wanted).
Verification verify_state(int atspi_state, bool wanted, std::optional<StateSet> read);
// A container's Selection.IsChildSelected(index) answer.
Verification verify_selected(int index, std::optional<bool> read);

}  // namespace companyos::a11y
