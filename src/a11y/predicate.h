// What an element wait asks of its element, in the one vocabulary the wait method and
// automations' element waits share — exists, gone, value, state — and the one judgement of
// what a look saw, whoever looked: the wait method's tracker, which names its element by a
// ref, and an automation's element wait, which names it by a selector.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "a11y/vocabulary.h"
#include "companyos/result.h"

namespace companyos::a11y {

enum class Predicate {
  kExists,  // exactly one live element has the identity (of the ref, or the selector's)
  kGone,    // none has it (or its window is gone)
  kValue,   // exactly one has it and its value equals value exactly (no value equals nothing)
  kState,   // exactly one has it and it has the state named value ("checked", "focused")
};

// "exists", "gone", "value", "state"; INVALID_ARGS otherwise.
Result<Predicate> parse_predicate(std::string_view name);
std::string_view predicate_name(Predicate predicate);

// How the element is named. A ref names one element of one window: its window closing ends
// the wait (STALE_REF), and twins may part again. A selector names whatever matches in the
// app's windows now: a window not open yet may open, but two matches are a script that
// cannot say which it means (AMBIGUOUS_TARGET).
enum class NamedBy { kRef, kSelector };

// What one look saw of the element.
struct ElementSighting {
  enum class Presence { kOne, kNone, kSeveral, kWindowGone };
  Presence presence = Presence::kNone;
  std::size_t matches = 0;               // kSeveral: how many
  std::optional<std::string> value = {};  // the one element's, when read
  bool value_withheld = false;           // the one element is a password field: never read
  StateSet states = 0;                   // the one element's, when read
};

struct ElementVerdict {
  enum class Kind { kHolds, kNotYet, kRefused };
  Kind kind = Kind::kNotYet;
  std::optional<Error> refusal;  // kRefused: why the wait cannot go on
};

// The predicate's judgement of one look; value is the condition's (a state's name for
// kState); what names the element in a refusal's message (its ref, or its selector described). Refusals: STALE_REF (details.kind window_gone) for a ref whose window is gone,
// AMBIGUOUS_TARGET (identity_not_unique) for several matches of a selector, POLICY_DENIED
// for a value wait on a password field, INVALID_ARGS for an unknown state name.
ElementVerdict judge_element(Predicate predicate, const std::optional<std::string>& value,
                             const ElementSighting& seen, NamedBy named_by, std::string_view what);

}  // namespace companyos::a11y
