// The semantic action engine: acts on exactly one live element or refuses, and says what
// it saw. perform() resolves the target live (live_resolve.h), reads the element again
// immediately before acting (identity, states, and in strict mode the fingerprint),
// applies policy (password text needs secret; a disabled element is refused), picks a
// route by action name or interface (act/action_choice.h), sends ONE call (act/action_call.h),
// reads the effect back (act/action_readback.h) and checks the caller's expectation
// (action_expectation.h). Every reply and error carries its delivery; nothing ever falls
// back to physical input. Values and typed text never appear in replies, errors or logs —
// except the read-back text of a non-secret, non-password element, which the caller
// wrote. Thread-safe like Observer.
#pragma once

#include <memory>

#include "a11y/action_reply.h"
#include "a11y/action_request.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

class ActivationLedger;

class ActionEngine {
 public:
  explicit ActionEngine(Observer& observer);
  ~ActionEngine();
  ActionEngine(const ActionEngine&) = delete;
  ActionEngine& operator=(const ActionEngine&) = delete;

  // Errors carry details.delivery with a retry hint that agrees with it, and
  // details.target {app, window, role, name} once the target was resolved:
  //   INVALID_ARGS, STALE_REF (saved_ref_absent, fingerprint_changed {changed:[fields]},
  //   snapshot_unknown, element_unknown), AMBIGUOUS_TARGET (identity_not_unique),
  //   WINDOW_NOT_FOUND, ELEMENT_NOT_FOUND, ACTION_NOT_SUPPORTED, POLICY_DENIED
  //   ({reason: not_enabled | secret_required} or a password manager), APP_UNRESPONSIVE
  //   (delivered_unverified when the app stopped answering after the action was sent),
  //   BUS_UNAVAILABLE.
  // A read-back that does not match, or an expectation not met, is not an error: the
  // reply says delivered_unverified and shows what was read.
  // A button of a toolkit that drops quick repeated activations (ToolkitTraits::
  // button_activation_spacing) is activated no sooner than that after its previous one:
  // the action waits (timings.spacing_ms), within its deadline, before it reads anything.
  Result<ActionReply> perform(const ActionRequest& request, Deadline deadline);

 private:
  Observer& observer_;
  std::unique_ptr<ActivationLedger> activations_;
};

}  // namespace companyos::a11y
