// Pairs an accessibility window with its X11 client window, or with none when the pairing
// would be a guess: same pid, then same title, then the same size (GTK4 reports
// window-relative positions, so size is compared before position).
#pragma once

#include <optional>
#include <span>

#include "a11y/model.h"
#include "x11/windows.h"

namespace companyos::desktop {

std::optional<x11::WindowId> match_x11_window(const a11y::WindowInfo& window,
                                              std::span<const x11::WindowInfo> clients);

}  // namespace companyos::desktop
