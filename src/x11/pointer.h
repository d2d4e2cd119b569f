// Physical pointer input through XTest, in root (screen) coordinates. Whatever lies under
// the pointer receives the click; making sure that is the intended window is the caller's.
#pragma once

#include "companyos/result.h"
#include "x11/connection.h"

namespace companyos::x11 {

// INVALID_ARGS (nothing sent) when (x, y) is off screen.
Status move_pointer(Connection& connection, int x, int y);

// Presses and releases `button` (1 = left, 2 = middle, 3 = right, 4/5 = wheel) where the
// pointer is, and returns once the server has processed the release, so that input sent
// next cannot overtake a click a window manager holds. INVALID_ARGS (nothing sent) for a
// button the pointer does not have; TIMEOUT when the release stays held.
Status click_button(Connection& connection, int button = 1);

// move_pointer, then click_button.
Status click_at(Connection& connection, int x, int y, int button = 1);

}  // namespace companyos::x11
