// A run's status and the state machine that moves it (DESIGN.md §7): which events each
// status accepts, which statuses are final, and which demote an unattended automation. Which
// statuses count as executed for the gate is store::is_executed_status: the ledger the gate
// reads is written in the store, so the rule lives there once.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/result.h"

namespace companyos::automation {

enum class RunStatus {
  kRunning,    // steps are running (or a retry is pending)
  kWaiting,    // waiting for a person: to approve the run or its next step
  kSucceeded,  // every action and check passed
  kFailed,     // an action or a check failed, or the daemon restarted during the run
  kBlocked,    // refused before acting: launch refused, target stale or ambiguous, denied,
               // not approved in time
  kSkipped,    // a precondition failed, or the trigger came while a run was active
  kStopped,    // stopped by a person or by stop-all
  kReverted,   // undone: the recorded inverses ran
};

enum class RunEvent {
  kAskApproval,      // a step (or a scheduled run below level 4) waits for a person
  kApprove,          // the person approved
  kDeny,             // the person denied
  kApprovalExpired,  // nobody approved before the next trigger or within 1 h
  kSkip,             // a precondition failed
  kSucceed,          // the last step passed
  kFail,             // an action or a check failed
  kBlock,            // a step was refused before it acted
  kStop,             // `automation stop`, stop-all
  kUndo,             // `run undo` ran the inverses
  kDaemonRestart,    // the daemon died while the run was unfinished
};

// "running", "waiting", "succeeded", "failed", "blocked", "skipped", "stopped", "reverted".
std::string_view to_string(RunStatus status);
std::optional<RunStatus> run_status_from_string(std::string_view name);
// "ask_approval", "approve", "deny", "approval_expired", "skip", "succeed", "fail",
// "block", "stop", "undo", "daemon_restart".
std::string_view to_string(RunEvent event);

struct RunTransition {
  RunStatus from;
  RunEvent event;
  RunStatus to;
};

// Every legal transition; any other (status, event) pair is refused.
std::span<const RunTransition> run_transitions();

// The status after `event`, or CONFLICT (details.status, details.event, details.allowed_from)
// when `from` does not accept it.
Result<RunStatus> transition(RunStatus from, RunEvent event);

// A run is created running (started by a person, or an unattended trigger), waiting (a
// trigger that needs a person) or skipped (a trigger while a run of it was active).
bool can_start_as(RunStatus status);
// Final: no event except undo moves it any more. Only running and waiting are not.
bool is_finished(RunStatus status);
// Failed and reverted drop a level-4 automation to 3; blocked is not a failure.
bool demotes_unattended(RunStatus status);

}  // namespace companyos::automation
