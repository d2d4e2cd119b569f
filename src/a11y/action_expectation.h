// What a caller expects an action (a click, a named action) to cause, checked by polling
// live reads until a deadline: a window with a given title appears, an element gets a
// state, or a text appears in the target's window. Only a change counts: the condition is
// read before the action too, and an expectation that already held then cannot verify
// anything (met=false, reason "held_before_the_action").
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <set>
#include <string>

#include "a11y/action_target.h"
#include "a11y/model.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

enum class ExpectationKind {
  kWindowTitle,   // a new window (of any app) has exactly this title
  kElementState,  // the ref's element has this state (an AT-SPI state name, e.g. "checked")
  kText,          // an element of the target's window shows this text (name or value)
};

struct Expectation {
  ExpectationKind kind = ExpectationKind::kWindowTitle;
  std::string text;  // the title, the state name, or the text
  std::optional<ActionTarget> element;  // kElementState: whose state
  int state = -1;                       // kElementState: the AtspiStateType
  std::chrono::milliseconds timeout{3000};
  friend bool operator==(const Expectation&, const Expectation&) = default;
};

// What the last poll saw: how many windows or elements held the condition, or the code of
// the error that kept it from looking.
struct ExpectationObservation {
  std::optional<std::size_t> matches;
  std::optional<ErrorCode> error;
  friend bool operator==(const ExpectationObservation&, const ExpectationObservation&) = default;
};

struct ExpectationResult {
  bool met = false;
  std::string reason;  // "met", "timeout", "held_before_the_action"
  double waited_ms = 0;
  std::optional<ExpectationObservation> observed;  // none before the first poll
};

// Reads the condition before the action (before()), then polls it after (after()).
class ExpectationCheck {
 public:
  // window: the action target's window (where kText looks).
  ExpectationCheck(Observer& observer, Expectation expectation, WindowInfo window);

  // Errors (e.g. a stale ref in the expectation) mean the action must not be sent.
  Status before(Deadline deadline);
  ExpectationResult after(Deadline deadline);

 private:
  // Whether the condition holds now in a way it did not before; nullopt when it cannot be
  // read at the moment.
  std::optional<bool> newly_holds(Deadline deadline, std::optional<ExpectationObservation>& observed);
  Result<std::set<std::string>> holders(Deadline deadline);

  Observer& observer_;
  Expectation expectation_;
  WindowInfo window_;
  std::set<std::string> held_before_;  // windows / elements where it held before
  bool held_before_at_all_ = false;
};

}  // namespace companyos::a11y
