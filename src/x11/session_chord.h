// Key chords that end or lock the session or switch virtual terminals. The daemon refuses
// them without --force; matching is on the parsed chord, so spelling and order do not matter.
#pragma once

#include "x11/key_chord.h"

namespace companyos::x11 {

// True for ctrl+alt+BackSpace, ctrl+alt+Delete (or KP_Delete), ctrl+alt+F1…F12,
// ctrl+alt+l and super+l (lock, in either case), also with extra modifiers held; and for
// keys that do it alone: Terminate_Server, XF86Switch_VT_1…12, XF86LogOff,
// XF86ScreenSaver, XF86PowerOff.
bool is_session_chord(const KeyChord& chord);

}  // namespace companyos::x11
