// The strict shapes that app names and key chords must have before anything is handed to
// the external agent-desktop program (or any other step runs with them).
#pragma once

#include <string_view>

#include "companyos/result.h"

namespace companyos::launch {

// ^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$ — else INVALID_ARGS, details.reason "invalid_app_name".
Status check_app_name(std::string_view app);

// Up to four modifiers (ctrl, control, alt, shift, super, meta, win, cmdorctrl; any case),
// each followed by '+', then one key: a letter or digit, one printable ASCII punctuation
// character other than '+' ("/", ".", "-", "_"; '+' is "plus"), or a key name of 2–32
// letters, digits and underscores starting with a letter ("Return", "F5", "KP_Enter") —
// else INVALID_ARGS, details.reason "invalid_chord".
Status check_key_chord(std::string_view chord);

}  // namespace companyos::launch
