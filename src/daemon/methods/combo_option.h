// set-value on a combo box with an option's label: the option is picked in one call, through
// the engine's select. The option is found by its label under the combo box (a menu item, as
// GTK 3, Gecko and Chromium show them) and selected as `select` would (the combo box's
// Selection, the list's, the item's own action); where only an open list's copy takes it
// (Gecko's <select>: option_needs_open_list), the combo box is clicked open, its list
// awaited, and the copy picked within that list. The select's read-back verifies the option
// is selected. A Qt combo box's options (list items) are picked with the open list's keys
// (combo/option_keys.h): selecting one through accessibility selects it in the list and
// leaves the combo box's current item as it was.
#pragma once

#include "a11y/action_engine.h"
#include "a11y/action_request.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::daemon::methods {

// Whether set-value was refused because its target is a combo box it cannot write (no Value,
// no editable text): then the value may name an option.
bool is_combo_box_refusal(const Error& error);

// Picks the option labelled request.argument of the combo box request.target names.
// ELEMENT_NOT_FOUND (not delivered) when it has no such option; for a Qt combo box's,
// without the physical keyboard (the person's setting), ACTION_NOT_SUPPORTED
// (option_needs_the_keyboard, not delivered).
Result<a11y::ActionReply> pick_combo_option(a11y::Observer& observer, a11y::ActionEngine& engine,
                                            const a11y::ActionRequest& request, Deadline deadline);

}  // namespace companyos::daemon::methods
