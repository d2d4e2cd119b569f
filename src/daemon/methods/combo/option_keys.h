// A combo box whose current item only its open list's keys change (Qt's: selecting a list
// item through accessibility selects it in the list and leaves the combo box's current
// item as it was). The combo box is clicked open, the list's selection moved to the option
// with Down or Up — nothing is committed while it moves — and checked to stand on it, then
// Return commits it; the read-back is the combo box's name (Qt names a combo box by its
// current text). Where the selection does not reach the option, Escape closes the list and
// the combo box keeps its item. The keys are the physical keyboard: the request's keyboard
// route, which the daemon gives only when the person switched physical input on.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "a11y/action_engine.h"
#include "a11y/action_request.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::daemon::methods::combo {

// An item of the open list, in the list's order.
struct ListedOption {
  std::string name;
  bool selected = false;
};

// How the list's selection reaches the option: `presses` of `key` ("down" or "up").
struct OptionKeys {
  std::string_view key;
  int presses = 0;
  std::size_t option = 0;  // the option's index in the list
};

// ELEMENT_NOT_FOUND when no item is labelled `label`, AMBIGUOUS_TARGET when several are,
// ACTION_NOT_SUPPORTED when no item or several are selected (where the list stands is not
// known, so no count of presses is).
Result<OptionKeys> keys_to_option(const std::vector<ListedOption>& options, std::string_view label);

// set-value on the combo box request.target with the option labelled request.argument.
// Without a keyboard route: ACTION_NOT_SUPPORTED (option_needs_the_keyboard), nothing sent.
Result<a11y::ActionReply> pick_option_with_keys(a11y::Observer& observer, a11y::ActionEngine& engine,
                                                const a11y::ActionRequest& request, Deadline deadline);

}  // namespace companyos::daemon::methods::combo
