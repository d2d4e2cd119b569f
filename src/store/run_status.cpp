#include "store/run_status.h"

#include <array>

namespace companyos::store {
namespace {

constexpr std::array<std::string_view, 8> kStatusNames = {
    "running", "waiting", "succeeded", "failed", "blocked", "skipped", "stopped", "reverted"};

constexpr std::array<std::string_view, 11> kEventNames = {
    "ask_approval", "approve", "deny", "approval_expired", "skip", "succeed", "fail",
    "block",        "stop",    "undo", "daemon_restart"};

using S = RunStatus;
using E = RunEvent;

// A retry keeps a run running, so it is no event. Undo is for finished runs that may have
// changed something: not skipped ones (preconditions have no effect), nor one still going
// (stop it first). A second approval of the same step finds the run running and is refused.
// A run can wait for a person after one of its steps failed or was blocked (a postAction or
// a retry that asks): whatever ends that wait, the run ends failed (blocked), so the gate
// sees what already happened; so does a waiting run whose definition no longer loads.
constexpr std::array<RunTransition, 18> kTransitions{{
    {S::kRunning, E::kAskApproval, S::kWaiting},
    {S::kRunning, E::kSkip, S::kSkipped},
    {S::kRunning, E::kSucceed, S::kSucceeded},
    {S::kRunning, E::kFail, S::kFailed},
    {S::kRunning, E::kBlock, S::kBlocked},
    {S::kRunning, E::kStop, S::kStopped},
    {S::kRunning, E::kDaemonRestart, S::kFailed},
    {S::kWaiting, E::kApprove, S::kRunning},
    {S::kWaiting, E::kDeny, S::kBlocked},
    {S::kWaiting, E::kApprovalExpired, S::kBlocked},
    {S::kWaiting, E::kFail, S::kFailed},
    {S::kWaiting, E::kBlock, S::kBlocked},
    {S::kWaiting, E::kStop, S::kStopped},
    {S::kWaiting, E::kDaemonRestart, S::kFailed},
    {S::kSucceeded, E::kUndo, S::kReverted},
    {S::kFailed, E::kUndo, S::kReverted},
    {S::kBlocked, E::kUndo, S::kReverted},
    {S::kStopped, E::kUndo, S::kReverted},
}};

constexpr std::array<RunStatus, 8> kAllStatuses = {S::kRunning, S::kWaiting, S::kSucceeded,
                                                   S::kFailed,  S::kBlocked, S::kSkipped,
                                                   S::kStopped, S::kReverted};

}  // namespace

std::string_view to_string(RunStatus status) {
  return kStatusNames[static_cast<std::size_t>(status)];
}

std::optional<RunStatus> run_status_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == name) return static_cast<RunStatus>(i);
  }
  return std::nullopt;
}

void to_json(nlohmann::json& out, RunStatus status) { out = std::string(to_string(status)); }

std::string_view to_string(RunEvent event) { return kEventNames[static_cast<std::size_t>(event)]; }

std::span<const RunTransition> run_transitions() { return kTransitions; }

Result<RunStatus> transition(RunStatus from, RunEvent event) {
  nlohmann::json allowed_from = nlohmann::json::array();
  for (const RunTransition& t : kTransitions) {
    if (t.event != event) continue;
    if (t.from == from) return t.to;
    allowed_from.push_back(to_string(t.from));
  }
  const std::string status(to_string(from));
  const std::string name(to_string(event));
  return make_error(ErrorCode::kConflict, "a run that is " + status + " does not accept " + name,
                    {{"status", status}, {"event", name}, {"allowed_from", allowed_from}});
}

bool can_start_as(RunStatus status) {
  return status == S::kRunning || status == S::kWaiting || status == S::kSkipped;
}

bool is_finished(RunStatus status) { return status != S::kRunning && status != S::kWaiting; }

bool demotes_unattended(RunStatus status) { return status == S::kFailed || status == S::kReverted; }

bool is_executed_status(RunStatus status) {
  return status == S::kSucceeded || status == S::kFailed || status == S::kReverted;
}

std::string sql_status_list(bool (*holds)(RunStatus)) {
  std::string list;
  for (RunStatus status : kAllStatuses) {
    if (!holds(status)) continue;
    if (!list.empty()) list += ", ";
    list += "'" + std::string(to_string(status)) + "'";
  }
  return list;
}

Result<RunStatus> stored_run_status(std::string_view text) {
  if (auto status = run_status_from_string(text)) return *status;
  return make_error(ErrorCode::kInternal, "the store holds an unknown run status '" + std::string(text) + "'",
                    {{"status", text}});
}

}  // namespace companyos::store
