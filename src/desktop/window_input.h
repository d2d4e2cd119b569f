// Physical input to a whole window: text typed into its focused element (type-text, and
// the keyboard route's text) and a click on one point of its client area (click-at).
// Nothing goes out unless the window is the active one; typing reads the active window
// again before each chunk, so text never spills further than one chunk into a window that
// took the focus midway, and a click lands only where the window shows on top.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "desktop/physical_click.h"
#include "x11/connection.h"
#include "core/geometry.h"
#include "x11/windows.h"

namespace companyos::desktop {

// Characters typed between two looks at the active window.
inline constexpr std::size_t kTypingChunk = 16;

// `text` (valid UTF-8) cut into pieces of at most `per_chunk` code points, never inside one;
// none for empty text. per_chunk 0 is taken as 1.
std::vector<std::string_view> typing_chunks(std::string_view text, std::size_t per_chunk);

// Types `text` into whatever has the focus in `xid`, chunk by chunk, each after checking
// that `xid` is still the active window. INVALID_ARGS with nothing typed for text that
// cannot be typed; POLICY_DENIED {reason: not_active} when the window lost the focus. Every
// error carries details.typed (characters) and details.delivery. The caller holds
// physical_input_mutex() and has made the window active.
Status type_while_active(x11::Connection& connection, x11::WindowId xid, std::string_view text);

// The root point at (x, y) from the client area's top-left corner (the pixel of a window
// screenshot); nullopt when it lies outside the client area.
std::optional<ScreenPoint> point_in_client_area(const Bounds& client_area, int x, int y);

// Clicks `button` at (x, y) of `xid`'s client area: the window is brought forward, must be
// the active one and must show on top at that point (no menu, dialog or other window over
// it). Takes physical_input_mutex(). Errors carry details.delivery; refusals before the
// button went down are not_delivered.
Result<ScreenPoint> click_in_window(x11::Connection& connection, x11::WindowId xid, int x, int y, int button);

}  // namespace companyos::desktop
