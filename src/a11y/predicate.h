// What an element wait asks of its element, in the one vocabulary the wait method and
// automations' element waits share: exists, gone, value, state.
#pragma once

#include <string_view>

#include "companyos/result.h"

namespace companyos::a11y {

enum class Predicate {
  kExists,  // exactly one live element has the identity (of the ref, or the selector's)
  kGone,    // none has it (or its window is gone)
  kValue,   // exactly one has it and its value equals value exactly
  kState,   // exactly one has it and it has the state named value ("checked", "focused")
};

// "exists", "gone", "value", "state"; INVALID_ARGS otherwise.
Result<Predicate> parse_predicate(std::string_view name);
std::string_view predicate_name(Predicate predicate);

}  // namespace companyos::a11y
