// What an action opened: a window of its app that was not listed before it (a dialog — a
// click that runs one modally is answered before the dialog is even shown, so the listing
// is repeated for a moment then), and, for an element that opens a menu or list (a menu,
// menu item or combo box), the surface it opened. Told in the action's reply as `opened`;
// never a reason to fail an action that was delivered.
#pragma once

#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "a11y/action_reply.h"
#include "a11y/action_request.h"
#include "a11y/observer.h"
#include "core/deadline.h"

namespace companyos::daemon::methods {

struct BeforeAction {
  std::string app;
  std::set<std::string> window_ids;
};

// Only actions that can open something (click, a named action, expand) are looked at; the
// app's windows as listed now, or nullopt when they cannot be listed (the engine then says
// why the action cannot go ahead).
std::optional<BeforeAction> look_before(a11y::Observer& observer, const a11y::ActionRequest& request,
                                        Deadline deadline);

// {"windows": [...new windows...], "surface": {...} or null}; null when the action was not
// delivered.
nlohmann::json what_opened(a11y::Observer& observer, const BeforeAction& before, const a11y::ActionReply& reply,
                           Deadline deadline);

}  // namespace companyos::daemon::methods
