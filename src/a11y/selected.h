// The elements a selector names in an app's windows now, as automations' element waits,
// checks and set_value steps see them: read from fresh snapshots as `find` reads them (so
// each match has a ref), of the selector's role, with its name (any name when the name is
// empty: a selector by id alone), with its accessible id, in the window titled title (or
// every window of the app), and — with within_element — under the one element of its window
// the scope describes.
#pragma once

#include <vector>

#include "a11y/action_target.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

// INVALID_ARGS for what a selector here cannot name: a window by id, a scope by ref, a cell
// (its window is named by title and its scope by role and name).
Status check_selectable(const Selector& selector);

// Zero or several matches are not errors. Errors as Observer::find gives them
// (APP_NOT_FOUND, WINDOW_NOT_FOUND, POLICY_DENIED, APP_UNRESPONSIVE, BUS_UNAVAILABLE);
// ELEMENT_NOT_FOUND (details.kind scope_absent) when there are matches but no window has
// the scope, AMBIGUOUS_TARGET (scope_not_unique) when a window has it twice; INVALID_ARGS
// as check_selectable.
Result<std::vector<FoundElement>> find_selected(Observer& observer, const Selector& selector,
                                                Deadline deadline);

}  // namespace companyos::a11y
