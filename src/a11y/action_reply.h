// What an action reports: its delivery (and so whether a retry is safe), the route it
// took, the element it acted on, what the read-back and the expectation saw, and timings.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "a11y/act/action_kind.h"
#include "a11y/act/action_readback.h"
#include "a11y/action_expectation.h"
#include "a11y/model.h"
#include "core/delivery.h"

namespace companyos::a11y {

struct ActionTargetSummary {
  std::string ref;  // "" for a selector
  std::string app;
  std::optional<int> pid;
  std::string window_id;
  std::string window_title;
  std::string role;
  std::string name;
  int position = 0;  // depth-first position in the live window tree
  // It says it opens a menu, list or dialog: has-popup, a menu or combo box, a menu item
  // with a submenu, or a name ending in an ellipsis (a command that asks for more).
  bool opens_something = false;
};

// Whether the element says it opens something (ActionTargetSummary::opens_something).
bool says_it_opens_something(const Node& live, const Node* stored);

struct ActionTimings {
  double resolve_ms = 0;
  double preflight_ms = 0;  // expectation baseline, strict pid, live read before acting
  double deliver_ms = 0;
  double verify_ms = 0;     // read-back and expectation
  double spacing_ms = 0;    // waited so a button's previous activation could take effect
};

struct ActionReply {
  ActionKind kind = ActionKind::kClick;
  Delivery delivery = Delivery::kNotDelivered;
  std::string route;     // e.g. "action:click", "EditableText.SetTextContents", "none"
  // A route whose effect the final one replaced: a spreadsheet's cell given a plain number
  // by its Value showed it otherwise than typed, and its input line entered it again.
  std::optional<std::string> first_route;
  bool already = false;  // expand/collapse found it done: nothing was sent
  bool answered = true;  // the app answered the action call within answer_timeout
  ActionTargetSummary target;
  std::optional<Verification> verification;
  std::optional<Expectation> expectation;
  std::optional<ExpectationResult> expectation_result;
  std::optional<std::string> fingerprint;  // strict mode: the SHA-256 that matched
  ActionTimings timings;
  double milliseconds = 0;
  // How long after its answer the toolkit carries the action out: GTK 4 runs a button's
  // "clicked" as its 250 ms activation ends (ToolkitTraits::button_activation_spacing); 0
  // where the effect comes with the answer. What settles the app's state waits this long.
  std::chrono::milliseconds effect_delay{0};
};

}  // namespace companyos::a11y
