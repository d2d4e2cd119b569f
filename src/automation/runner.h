// Runs automations: one run at a time per automation, several automations at once, each
// run on its own thread.
//
// A run: preconditions first (a failing one → skipped; a refused one → blocked), then the
// actions in order (the first failed or blocked one ends them), then the postActions, all of
// them, also after a failed or blocked action — but not after a stop, a denial or an
// approval that expired (nobody may act then), nor after a skip. The run ends failed when an
// action or postAction failed (a check that did not hold included), else blocked when one was
// refused, else succeeded. A stop, denial or expiry that comes after a step failed or was
// blocked does not hide it: the run still ends failed (blocked), its reason noting what cut
// the rest short. Only a stop before anything failed or was blocked ends a run stopped.
//
// Retries: a main action that ran for real and failed is tried again up to maxRetries
// times, retryIntervalSeconds apart on the injected clock (recheck_deadlines() moves the
// wait on, as it does an approval's). The run stays running meanwhile; completed
// steps are not repeated; preconditions, postActions, dry runs and blocked or stopped steps
// are never retried. A retry whose wait would reach StartRequest::next_trigger_at is not
// made. A stop during the wait ends the run failed (the action did fail). The step is
// recorded once, as its last attempt left it, its reason naming the attempt ("(attempt 2 of
// 3)") and its output holding each earlier attempt's line and output first.
//
// Levels (the run's level is the lower of the automation's and the max_level setting):
//  1  dry run: every step with an effect, and every step after the preconditions, goes to
//     StepExecutor::dry_run (resolved and checked, nothing with an effect, no check counted:
//     a check of an effect that was not made would only report the dry run). Preconditions
//     without an effect run for real, since they decide whether the run would start.
//  2  every step with an effect waits for a person; approve continues, deny ends it blocked.
//  3/4 no per-step approval, except press, which always asks.
// A scheduled trigger, or an agent's start, creates a run that waits for a person unless the
// automation is at 4 with unattended on and max_level 4 (levels.h may_start_unattended). Any approval not
// given within RunnerOptions::approval_timeout (1 h) ends the run blocked; so does the next
// scheduled trigger of the automation when its run still waits for the run's approval.
//
// Steps are recorded with seq = the step's 1-based position in definition order
// (preconditions, actions, postActions), phase "precondition"/"action"/"post", status
// "passed", "failed", "blocked", "stopped" or "would_run" (level 1), its delivery, error code,
// reason, duration (injected clock; a retried step's attempts added up, the waits not) and
// output capped at 64 KiB a step and 128 KiB a run.
// Checks are counted passed/failed for the gate (not preconditions, not dry runs).
//
// Store: `db` must be a connection of the runner's own (store::Database::open on the daemon's
// store path): the runner's threads share it, serialized by the runner, and SQLite
// connections here are opened without their own mutex. Nothing else may use it. The daemon
// reads runs, steps and the gate through its own connection. Before it constructs the runner,
// the daemon calls store::RunStore::mark_interrupted_runs_failed(): a run left running or
// waiting in the store has no thread any more. The runner turns off the connection's
// automatic WAL checkpoint and checkpoints after each run has ended instead.
//
// A full disk: a run whose step or end the store refuses ends failed in the runner at once
// (no step runs after it), and its end is written, with the step it could not record, as
// soon as the store takes writes again: at the next start, stop or recheck_deadlines(). Until
// then start and stop of that automation answer with the store's error (STORAGE_FULL),
// never a ghost "already has run N running". A run a previous daemon left active that the
// restart could not mark failed (the disk was full then too) is marked when start meets it.
//
// Questions: a step may ask the person a question while it runs (a pi step relays pi's
// select, confirm, input and editor dialogs, question.h). The run waits for the person as
// for an approval — listed by active(), notified, status waiting — until answer(), or until
// the step withdraws the question (its asker went on, the step's timeout, a stop).
//
// Thread-safety: every public method may be called from any thread. start, approve, deny,
// answer, active and recheck_deadlines return at once; stop, stop_all and undo block while steps end
// or inverses run (seconds), so call them off the daemon's main loop.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "automation/definition.h"
#include "automation/question.h"
#include "automation/step_executor.h"
#include "companyos/result.h"
#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_store.h"
#include "store/settings.h"

namespace companyos::automation {

inline constexpr std::chrono::seconds kApprovalTimeout{60 * 60};

struct RunnerOptions {
  // A waiting run with no decision for this long (on the injected clock) ends blocked.
  std::chrono::seconds approval_timeout = kApprovalTimeout;
  // How often a waiting run looks at the clock when nothing wakes it (recheck_deadlines()
  // wakes it at once; this only bounds a clock that moves without telling anyone).
  std::chrono::milliseconds approval_poll{1000};
};

enum class Trigger {
  kManual,    // a person (`automation start`): the run is by a person
  kSchedule,  // the scheduler
  kAgent,     // an agent (MCP): waits for a person's approval as a scheduled run does, and is
              // never counted as a person's supervision until a person approves it
};

struct StartRequest {
  Trigger trigger = Trigger::kManual;
  // Unix seconds of the automation's next scheduled trigger after this one (scheduled
  // runs); retries never reach it.
  std::optional<std::int64_t> next_trigger_at;
};

// A run that is running or waiting, as `approvals` and `status` show it.
struct ActiveRunInfo {
  std::int64_t run_id = 0;
  std::int64_t automation_id = 0;
  std::string automation_name;
  int level = 0;  // the run's level
  store::RunStatus status = store::RunStatus::kRunning;  // running or waiting
  std::int64_t started_at = 0;
  // While waiting: what the person is asked to approve ("actions[1] set_value on text
  // \"Name\" in gtk3-fixture", or the step's own description), since when, until when.
  std::optional<std::string> waiting_description;
  std::optional<std::string> waiting_step;  // "actions[1]"; absent for a run-level approval
  std::optional<std::int64_t> waiting_since;     // Unix seconds
  std::optional<std::int64_t> approval_deadline;  // Unix seconds: ends blocked then
  // While a failed action waits to be tried again: when the next attempt starts (Unix s).
  std::optional<std::int64_t> retry_at;
  // While a step asks the person a question (a pi step): the question; approval_deadline
  // is then when the step gives up on it.
  std::optional<Question> question;
};

struct UnrecordedRun {
  store::RunStatus status = store::RunStatus::kFailed;
  std::int64_t finished_at = 0;  // Unix seconds
  std::optional<std::string> reason;
};

struct StopAllOutcome {
  std::int64_t disabled = 0;  // automations that were enabled and are now disabled
  std::vector<store::RunRecord> stopped;  // the runs that were active, now stopped
};

struct UndoOutcome {
  store::RunRecord run;  // now reverted
  bool demoted = false;  // the automation dropped from level 4 to 3
  // seqs of every inverse taken back, highest first, those of an earlier undo that failed
  // part-way included.
  std::vector<int> undone;
  // seqs of passed steps with an irreversible effect (click, press, command without undo):
  // nothing can take them back, so they are only reported.
  std::vector<int> not_reversible;
};

class Runner {
 public:
  Runner(store::Database& db, StepExecutor& executor, const Clock& clock,
         RunnerOptions options = {});
  // Stops every active run (reason "the daemon stopped") and joins their threads.
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Creates the run and returns its record (running, or waiting for a person); its steps
  // then run on the run's own thread. Refusals: POLICY_DENIED when automations_enabled is
  // false (details.reason "automations_disabled") or the automation is disabled
  // ("automation_disabled"); NOT_FOUND; CONFLICT when a manual start finds a run of the
  // automation active or its undo running. A scheduled trigger that finds a run active is not
  // an error: it returns a run recorded as skipped (or, when that run still waits for the
  // run's approval, that run ends blocked and the new one starts).
  Result<store::RunRecord> start(std::int64_t automation_id, const StartRequest& request);

  // The waiting run goes on (now running; supervised when its level is 3). NOT_FOUND for an
  // unknown run; CONFLICT when it is not waiting.
  Result<store::RunRecord> approve(std::int64_t run_id);
  // The waiting run ends blocked ("denied by a person"); its waiting step is recorded
  // blocked. Same errors as approve.
  Result<store::RunRecord> deny(std::int64_t run_id);
  // The person's answer to the question a step of the run asks (a pi step's): the run runs
  // again (supervised when its level is 3, as after an approval) and the step goes on with
  // the answer. NOT_FOUND for an unknown run; CONFLICT when the run asks no question;
  // INVALID_ARGS when the answer does not fit the question (details.problem). approve and
  // deny answer CONFLICT for a run that asks a question.
  Result<store::RunRecord> answer(std::int64_t run_id, const Answer& answer);

  // Ends the automation's active run: cancels the active step (a command's process group is
  // killed) or a pending retry, and runs no further step. The run ends stopped, or failed
  // (blocked) when a step had already failed (been blocked), the stop noted in its reason.
  // Blocks until the run has ended. NOT_FOUND for an unknown automation; CONFLICT when it has
  // no active run.
  Result<store::RunRecord> stop(std::int64_t automation_id);
  // Stop-all: every automation disabled (one transaction), then every active run stopped.
  // The caller sets automations_enabled=false when that is what the person asked for; this
  // is also what the daemon calls after that setting turns false.
  Result<StopAllOutcome> stop_all();

  // Runs the run's recorded inverses in reverse order (highest seq first) on the caller's
  // thread, then marks it reverted and demotes a level-4 automation to 3 in that same
  // transaction. NOT_FOUND; CONFLICT when the run is active, skipped or already reverted, or
  // another run or undo of the automation is active. When an inverse fails, the ones after
  // it are not run, the run keeps its status, and the error (the inverse's code) has
  // details.seq, details.undone (seqs already taken back). Each inverse that ran is marked in
  // the store, so undo can be called again and runs only the ones not yet taken back.
  Result<UndoOutcome> undo(std::int64_t run_id);

  // Running and waiting runs of this runner, oldest first.
  std::vector<ActiveRunInfo> active() const;

  // A run that has ended whose end the store could not record yet (a full disk): how it
  // ended, as the store will record it. nullopt for any other run.
  std::optional<UnrecordedRun> unrecorded(std::int64_t run_id) const;

  // The injected clock moved: waiting runs look at their approval deadline, and failed
  // actions waiting to be retried at their retry time, now.
  void recheck_deadlines();

  // Blocks until no run is active (a waiting run ends only by a decision, a stop or its
  // approval timeout) and joins the threads of finished runs. For tests and shutdown.
  void wait_idle();

 private:
  struct ActiveRun;
  class RunExecution;

  // Under store_mutex_: the only way the runner touches db.
  template <typename F>
  auto with_store(F&& body) const;

  // A run whose end the store refused to record (a full disk). The runner already treats
  // it as ended; its end, and the step it could not record, wait here and are written by
  // record_unrecorded_ends() at the next start, stop or deadline recheck, so the store
  // shows no ghost active run for longer than the disk stays full.
  struct UnrecordedEnd {
    std::int64_t automation_id = 0;
    std::int64_t run_id = 0;
    store::RunEvent event = store::RunEvent::kFail;
    std::optional<std::string> reason;
    std::int64_t finished_at = 0;
    std::optional<store::StepRecord> step;
    store::RunStatus status = store::RunStatus::kFailed;  // what the end makes it
  };

  // These three require mutex_. record_unrecorded_ends writes them oldest first and stops
  // at the first store error, which it returns.
  Status record_unrecorded_ends();
  const UnrecordedEnd* unrecorded_end_of(std::int64_t automation_id) const;
  Error unrecorded_error(const UnrecordedEnd& end, const Error& cause) const;

  // start's steps. What a start needs to go ahead: the settings it reads and the
  // automation, switched on and enabled (POLICY_DENIED otherwise).
  struct Startable;  // the settings and the automation (runner.cpp)
  Result<Startable> startable(std::int64_t automation_id) const;
  // Requires mutex_ (held by LOCK). While the automation has an active run or an undo: a
  // manual or agent start is CONFLICT; a scheduled one replaces a run still waiting for
  // its approval (waiting for it to end) or is recorded skipped. nullopt: room was made.
  std::optional<Result<store::RunRecord>> make_room(std::unique_lock<std::mutex>& lock,
                                                    const store::RunStart& run_start, bool scheduled);
  // The run recorded as started; a run a previous daemon left active is marked failed first.
  Result<store::RunRecord> record_start(const store::RunStart& run_start);
  // Requires mutex_. The run's thread, started on its revision's definition; a definition
  // that no longer parses fails the run at once.
  Result<store::RunRecord> launch(const store::RunRecord& started, Startable startable,
                                  const StartRequest& request);

  Result<store::RunRecord> decide_waiting(std::int64_t run_id, bool approve);
  // Requires mutex_.
  static bool advance(ActiveRun& run, store::RunEvent event);
  void run_thread(std::shared_ptr<ActiveRun> run);
  // These three require mutex_.
  void request_stop(ActiveRun& run, std::string reason);
  std::shared_ptr<ActiveRun> find_run(std::int64_t run_id) const;
  void reap_finished_threads();

  store::Database& db_;  // checkpointed after each run, never within one
  StepExecutor& executor_;
  const Clock& clock_;
  RunnerOptions options_;

  mutable std::mutex store_mutex_;  // after mutex_ when both are held
  mutable store::RunStore runs_;
  mutable store::AutomationStore automations_;
  mutable store::Settings settings_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a decision, a stop, a run ended, a deadline to recheck
  std::map<std::int64_t, std::shared_ptr<ActiveRun>> active_;  // by automation id
  std::set<std::int64_t> undoing_;                             // automation ids
  std::vector<std::shared_ptr<ActiveRun>> ended_;              // threads still to join
  std::vector<UnrecordedEnd> unrecorded_;                      // oldest first
  bool shutting_down_ = false;
};

}  // namespace companyos::automation
