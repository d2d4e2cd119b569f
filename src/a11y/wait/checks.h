// The looks a wait takes at the desktop, one kind per condition, each bounded by the
// deadline it is given, and what else a wait asks the bus: a new app's name, and the app
// of the ref an element condition names.
#pragma once

#include <optional>
#include <string>

#include "a11y/observer.h"
#include "a11y/wait.h"
#include "a11y/wait/tracker.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

// The app's windows as listed now. No app of the name is not an error (app_running false);
// one that does not answer leaves the listing incomplete (answered false, problem).
WindowsSeen check_windows(Observer& observer, const std::string& app, Deadline deadline);
// Reads the app's listed windows until one shows the text. That window's snapshot is
// stored, so the match's ref can be acted on like a snapshot's.
TextSeen check_text(Observer& observer, const TextAppears& condition, Deadline deadline);
// Reads every window of the app for open surfaces; the innermost of the kind wins.
SurfaceSeen check_surface(Observer& observer, const SurfaceOpens& condition, Deadline deadline);
// Resolves the ref live (exists, gone), or reads its element (value, state).
ElementSeen check_element(Observer& observer, const ElementPredicate& condition,
                          Deadline deadline);
// Finds the selector's elements (a11y/selected.h): the app or window not there is the
// window gone; several are several; another failure proves nothing (no sighting).
ElementSeen check_selected(Observer& observer, const SelectedElement& condition, Deadline deadline);

// The app's name, asked directly: an app that opens and closes a window quickly may be gone
// before a check lists it, and its events count only once its name is known.
std::optional<std::string> ask_app_name(Observer& observer, const std::string& bus_name,
                                        Deadline deadline);

// The bus name of the ref's app, once the ref is known to exist in the store and to be
// allowed: a password field's value is refused before anything is read.
Result<std::string> element_app(Observer& observer, const ElementPredicate& condition);

}  // namespace companyos::a11y
