// A run's status and the state machine that moves it: which events each status accepts,
// which statuses are final, which demote an unattended automation and which count as
// executed for the gate. It lives in the store because the store is where a run's status is
// read and its next one written, in one transaction; the runner and the gate above it use
// these same rules.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::store {

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

// "running", "waiting", "succeeded", "failed", "blocked", "skipped", "stopped", "reverted":
// the words the store's status columns hold and the daemon's replies show.
std::string_view to_string(RunStatus status);
std::optional<RunStatus> run_status_from_string(std::string_view name);
// A status in a reply is its word: without this, nlohmann::json would write the enum's
// number wherever a RunStatus meets a JSON value.
void to_json(nlohmann::json& out, RunStatus status);
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
inline bool is_active(RunStatus status) { return !is_finished(status); }
// Failed and reverted drop a level-4 automation to 3; blocked is not a failure.
bool demotes_unattended(RunStatus status);
// Executed runs did their work (succeeded, failed, reverted); blocked, skipped, stopped and
// unfinished runs did not and are no evidence for the gate's run counts.
bool is_executed_status(RunStatus status);

// "'running', 'waiting'": the statuses `holds` is true of, quoted for an SQL IN list, so a
// query filters by the same rule as the code.
std::string sql_status_list(bool (*holds)(RunStatus));
// A status read back from the store; INTERNAL for a word that is not one (the schema's CHECK
// constraint allows none).
Result<RunStatus> stored_run_status(std::string_view text);

}  // namespace companyos::store
