#include "x11/session_chord.h"

#include <X11/XF86keysym.h>
#include <X11/keysym.h>

namespace companyos::x11 {
namespace {

bool acts_alone(Keysym key) {
  if (key >= XF86XK_Switch_VT_1 && key <= XF86XK_Switch_VT_12) return true;
  return key == XK_Terminate_Server || key == XF86XK_LogOff || key == XF86XK_ScreenSaver ||
         key == XF86XK_PowerOff;
}

bool is_letter_l(Keysym key) { return key == XK_l || key == XK_L; }

}  // namespace

bool is_session_chord(const KeyChord& chord) {
  const Keysym key = chord.key;
  if (acts_alone(key)) return true;
  const Modifiers& held = chord.modifiers;
  if (held.ctrl && held.alt) {
    if (key == XK_BackSpace || key == XK_Delete || key == XK_KP_Delete) return true;
    if (key >= XK_F1 && key <= XK_F12) return true;
    if (is_letter_l(key)) return true;
  }
  return held.super && is_letter_l(key);
}

}  // namespace companyos::x11
