// Screen pixels, read from the root window as they are shown now. Whatever covers the
// area is what is captured, so callers that want one window's own pixels make sure it is
// active first (the daemon's policy).
#pragma once

#include <filesystem>

#include "companyos/result.h"
#include "x11/connection.h"
#include "core/geometry.h"
#include "x11/image.h"
#include "x11/windows.h"

namespace companyos::x11 {

// The pixels of `area` (root coordinates). INVALID_ARGS when the area is empty or not
// wholly on screen; PLATFORM_NOT_SUPPORTED unless the root visual is TrueColor.
Result<RgbImage> capture_area(Connection& connection, const Bounds& area);

// Captures exactly the client area of window `id` and writes it as a PNG at `path`
// (atomically). Returns the captured bounds; their size is the PNG's size.
// WINDOW_NOT_FOUND unless `id` is a viewable client; ACTION_NOT_SUPPORTED when part of the
// window lies off screen (those pixels do not exist).
Result<Bounds> capture_window_png(Connection& connection, WindowId id,
                                const std::filesystem::path& path);

}  // namespace companyos::x11
