// An action as a caller asks for it: what to act on, how (the kind and its
// argument), and how carefully (strict fingerprints, secret text, an expectation).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "a11y/act/action_kind.h"
#include "a11y/action_expectation.h"
#include "a11y/action_target.h"
#include "a11y/fingerprint.h"
#include "a11y/model.h"
#include "companyos/result.h"

namespace companyos::a11y {

// What set-value or type --headed asks of the keyboard: with `window` the active one,
// give the element the focus (focus_element, which sends nothing to the keyboard), then
// select all its text (select_all) or move the caret to its end (to_end), press the named
// `keys` one at a time ("down", "return": how an open list is moved and committed), then
// type `text`. Errors before the first key say not_delivered; after it,
// delivered_unverified.
struct KeyboardTyping {
  const WindowInfo& window;
  std::function<Status()> focus_element;
  bool select_all = false;
  bool to_end = false;
  std::vector<std::string_view> keys;
  std::string_view text;
};
// The physical keyboard, as the caller provides it (the physical-input gate is the
// caller's); the accessibility layer never types on its own.
using KeyboardRoute = std::function<Status(const KeyboardTyping&)>;

struct ActionRequest {
  ActionKind kind = ActionKind::kClick;
  ActionTarget target;
  // The text for set-value and type; the action's name for kNamed.
  std::string argument;
  // Strict mode: the fingerprint at resolution (the snapshot's record of a ref, or the
  // live read of a selector's match) must equal a live read just before the action.
  bool strict = false;
  // Strict against this instead (e.g. one recorded with an automation step).
  std::optional<FingerprintInput> expected_fingerprint;
  // Allows set-value/type on password elements; also keeps the read-back text out of
  // the reply for any element.
  bool secret = false;
  std::optional<Expectation> expect;
  // How long a read-back may wait for the toolkit to show the effect.
  std::chrono::milliseconds verify_timeout{500};
  // How long the action call may go unanswered before the app is asked whether it still
  // answers anything: if it does, it is busy with the action (e.g. a modal dialog the
  // click opened) and the reply says answered=false; if not, APP_UNRESPONSIVE.
  std::chrono::milliseconds answer_timeout{1000};
  // set-value and type go through this instead of EditableText when it is set: the
  // element is focused, its text replaced (set-value) or appended to (type) by keys, and
  // read back as the accessibility routes are.
  KeyboardRoute keyboard;
  // The same keyboard, taken only where the accessible route cannot change the text: the
  // toolkit ignores EditableText (Gecko) or the element has none (Chromium's web inputs).
  // The daemon sets it when the person's physical_input setting is on.
  KeyboardRoute keyboard_where_needed;
  // Requested once whoever asked has stopped waiting (its connection closed): it was told
  // the action failed, so the action must not happen. Checked just before delivery.
  std::stop_token caller_gone;
};

}  // namespace companyos::a11y
