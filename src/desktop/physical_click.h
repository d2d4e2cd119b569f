// click --headed: a click through the pointer (XTest) on exactly one element. The element
// is resolved live like a semantic action (unique in its window now, enabled; strict
// fingerprints compared), its window is brought forward through EWMH and must be the
// active one, the element is resolved again in place, and the pointer clicks the centre
// of its bounds in screen coordinates. The physical-input gate is the caller's; this
// never stands in for a semantic route on its own.
#pragma once

#include <optional>

#include "a11y/action_reply.h"
#include "a11y/action_request.h"
#include "a11y/model.h"
#include "companyos/result.h"
#include "core/deadline.h"
#include "core/geometry.h"
#include "x11/windows.h"

namespace companyos::a11y {
class Observer;
}

namespace companyos::desktop {

struct ScreenPoint {
  int x = 0;
  int y = 0;
  friend bool operator==(const ScreenPoint&, const ScreenPoint&) = default;
};

// The centre of an element's bounds in screen coordinates. Window-relative bounds (GTK4
// reports those) are offset by the client area's origin first. nullopt when the bounds are
// empty or their centre is outside the client area: the pointer would land elsewhere.
std::optional<ScreenPoint> click_point(const Bounds& element, bool window_relative,
                                       const Bounds& client_area);

// What a pointer click did: the reply of a semantic click with route "xtest:pointer", where
// the pointer clicked, and the X11 window it was brought forward in.
struct PointerClickReply {
  a11y::ActionReply action;
  ScreenPoint point;
  x11::WindowId x11_window = 0;
};

// Errors carry details.delivery (not_delivered until the button went down) and
// details.target once the element was resolved.
Result<PointerClickReply> physical_click(a11y::Observer& observer, const a11y::ActionRequest& request,
                                         Deadline deadline);

}  // namespace companyos::desktop
