// Physical keyboard input through XTest: whatever window has the focus receives it. The
// policy (input allowed, target active, session chords refused) is the caller's.
#pragma once

#include <string_view>

#include "companyos/result.h"
#include "x11/connection.h"
#include "x11/key_chord.h"

namespace companyos::x11 {

// Presses the chord's modifiers, then its key, and releases them in reverse order; Shift is
// added when the key sits on the shifted level. Keysyms the keymap lacks are mapped onto a
// spare keycode for the moment. PLATFORM_NOT_SUPPORTED without XTest.
Status send_key_chord(Connection& connection, const KeyChord& chord);

// OK when type_text could type every character of `text`: valid UTF-8 without control
// characters other than '\n' and '\t'; else the INVALID_ARGS type_text would answer.
Status check_typable(std::string_view text);

// Types UTF-8 `text` one key at a time ('\n' as Return, '\t' as Tab). INVALID_ARGS, with
// nothing sent, for invalid UTF-8 or other control characters. An error after the first
// key has gone out says how many characters were typed (details.typed) and is not safe to
// retry.
Status type_text(Connection& connection, std::string_view text);

}  // namespace companyos::x11
