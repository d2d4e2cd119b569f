// set-value and type --headed: the accessibility engine's keyboard (a11y::KeyboardRoute)
// through XTest. Under the physical-input lock it pairs the element's window with its X11
// window, brings it forward and confirms it is the active one, lets the engine give the
// element the focus, checks the window is still active, then selects all (ctrl+a) or moves
// to the end (ctrl+End), presses the named keys and types the text. Nothing is typed into any other window. The
// physical-input gate is the caller's.
#pragma once

#include "a11y/action_request.h"

namespace companyos::desktop {

a11y::KeyboardRoute keyboard_typing();

}  // namespace companyos::desktop
