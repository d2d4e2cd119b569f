// Outside views of the X server, from x11-utils rather than from the library under test.
#pragma once

#include <optional>

#include "core/geometry.h"
#include "x11/windows.h"

namespace companyos::x11::testing {

// Root's _NET_ACTIVE_WINDOW as `xprop -root` prints it; nullopt when unreadable or none.
std::optional<WindowId> xprop_active_window();

// The window's inside area in root coordinates as `xwininfo -id` prints it.
std::optional<Bounds> xwininfo_bounds(WindowId id);

}  // namespace companyos::x11::testing
