// What both ways of picking a combo box's option share: the caller's request aimed at
// another element, and the drop-down list a clicked combo box opened, found through
// surfaces.
#pragma once

#include <optional>
#include <string>

#include "a11y/action_request.h"
#include "a11y/observer.h"
#include "core/deadline.h"

namespace companyos::daemon::methods::combo {

// The caller's request as another kind on another target; the caller's expectation goes
// with the pick (a select), never with the click that opens the list.
a11y::ActionRequest as_kind(const a11y::ActionRequest& request, a11y::ActionKind kind, a11y::ActionTarget target);

// The open drop-down list of the window (a list, or a menu under a combo box, with an item
// showing) once one shows, in the window's stored snapshot; nullopt at the deadline.
std::optional<a11y::OpenSurface> open_list(a11y::Observer& observer, const std::string& window_id, Deadline deadline);

}  // namespace companyos::daemon::methods::combo
