// Reads the element a step's selector names, live, for checks, element waits and the value a
// set_value replaces: how many elements match now across the app's windows (or the one
// titled window), and what the one match shows. Every call takes a fresh read of the windows.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "a11y/action_target.h"
#include "a11y/model.h"
#include "a11y/observer.h"
#include "automation/definition.h"
#include "companyos/result.h"

namespace companyos::automation {

struct ElementProbe {
  std::size_t matches = 0;
  std::optional<a11y::Node> node;  // the one match, when there is exactly one
  std::string window_title;        // of the one match
};

// The selector as the action engine takes it. INVALID_ARGS for a role name AT-SPI lacks.
Result<a11y::Selector> to_selector(const std::string& app, const std::optional<std::string>& window,
                                   const ElementSelector& target);

// Errors as Observer::find gives them (APP_NOT_FOUND, WINDOW_NOT_FOUND, POLICY_DENIED,
// APP_UNRESPONSIVE, BUS_UNAVAILABLE); zero or several matches are not errors here. With a
// scope (target.within), only matches under it count; a scope found nowhere is
// ELEMENT_NOT_FOUND (scope_absent), one found twice in a window AMBIGUOUS_TARGET
// (scope_not_unique).
Result<ElementProbe> probe_element(a11y::Observer& observer, const std::string& app,
                                   const std::optional<std::string>& window,
                                   const ElementSelector& target, Deadline deadline);

// Value.CurrentValue as printed, else the text; nullopt for a password field (never read).
std::optional<std::string> element_value(const a11y::Node& node);

// "text \"Name\" (id \"entry\") in app mousepad": for messages; never a value.
std::string describe_target(const std::string& app, const ElementSelector& target);

}  // namespace companyos::automation
