#include "automation/runner.h"

#include <algorithm>
#include <thread>
#include <utility>

#include <spdlog/spdlog.h>

#include "automation/action_retry.h"
#include "automation/effects.h"
#include "automation/levels.h"
#include "automation/run_plan.h"
#include "automation/step_description.h"
#include "automation/validation.h"
#include "store/output_cap.h"

namespace companyos::automation {
namespace {

constexpr std::string_view kDeniedReason = "denied by a person";
constexpr std::string_view kReplacedReason = "not approved before the next scheduled trigger";
constexpr std::string_view kShutdownReason = "the daemon stopped";

// The settings a run reads when it starts.
struct RunSettings {
  bool automations_enabled = true;
  bool unattended = false;
  int max_level = 3;
  bool physical_input = false;
  std::string agent_desktop_path;
};

Result<RunSettings> read_settings(const store::Settings& settings) {
  auto all = settings.all();
  if (!all) return std::move(all).take_error();
  RunSettings out;
  const auto& values = *all;
  out.automations_enabled = values.value("automations_enabled", true);
  out.unattended = values.value("unattended", false);
  out.max_level = values.value("max_level", 3);
  out.physical_input = values.value("physical_input", false);
  out.agent_desktop_path = values.value("agent_desktop_path", std::string());
  return out;
}

Result<Definition> parse_definition(const std::string& text) {
  auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) {
    return make_error(ErrorCode::kInternal, "the stored definition is not JSON");
  }
  auto definition = validate_definition(json, ValidationContext{});
  if (!definition) {
    return make_error(ErrorCode::kInternal,
                      "the stored definition no longer validates: " + definition.error().message,
                      definition.error().details);
  }
  return definition;
}

std::string approval_timeout_text(std::chrono::seconds timeout) {
  if (timeout.count() % 3600 == 0) return std::to_string(timeout.count() / 3600) + " h";
  if (timeout.count() % 60 == 0) return std::to_string(timeout.count() / 60) + " min";
  return std::to_string(timeout.count()) + " s";
}

}  // namespace

// How a wait for a person ended.
enum class Decision { kNone, kApproved, kDenied, kExpired, kReplaced, kStopped };

struct Runner::ActiveRun {
  store::RunRecord started;  // the record as start() returned it
  std::string automation_name;
  Definition definition;
  RunSettings settings;
  std::optional<std::int64_t> next_trigger_at;  // retries never reach it
  std::stop_source stop;
  std::string stop_reason;  // set with stop.request_stop(), under mutex_

  // Under Runner::mutex_: the status the store holds, moved only by advance().
  store::RunStatus status = store::RunStatus::kRunning;
  Decision decision = Decision::kNone;
  std::optional<std::string> waiting_description;
  std::optional<std::string> waiting_step;
  std::optional<std::int64_t> waiting_since;
  std::optional<std::int64_t> approval_deadline;
  std::optional<std::int64_t> retry_at;  // a failed action's next attempt, Unix seconds
  std::optional<Result<store::RunRecord>> approval;  // the store's answer to an approval
  bool ended = false;
  std::optional<Result<store::RunRecord>> final_record;

  std::thread thread;
};

template <typename F>
auto Runner::with_store(F&& body) const {
  std::lock_guard lock(store_mutex_);
  return body();
}

// Under mutex_: the run's status after `event`, which the store has just recorded. A status
// the store would not have moved to is a bug in the runner: it is logged and not applied.
bool Runner::advance(ActiveRun& run, store::RunEvent event) {
  auto to = store::transition(run.status, event);
  if (!to) {
    spdlog::error("run {}: {}", run.started.id, to.error().message);
    return false;
  }
  run.status = *to;
  return true;
}

// One run from its first step to its end, on the run's thread.
class Runner::RunExecution {
 public:
  RunExecution(Runner& runner, ActiveRun& run)
      : runner_(runner), run_(run), level_(level_of(run.started.level)), retry_(retry_policy(run.definition)) {}

  struct Ending {
    store::RunEvent event = store::RunEvent::kSucceed;  // what ends the run
    std::optional<std::string> reason;
  };

  Ending execute() {
    if (run_.started.status == store::RunStatus::kWaiting) {
      const Decision decision = await_person(std::nullopt, run_.started.waiting_description.value_or(""));
      if (store_error_) return store_failure(*store_error_);
      if (decision != Decision::kApproved) return ending_for(decision);
    }
    const auto plan = plan_steps(run_.definition);

    for (const auto& planned : plan) {
      if (planned.phase != Phase::kPreconditions) continue;
      auto result = perform(planned);
      if (result.ending) return *result.ending;
      if (result.status == StepStatus::kFailed) {
        return {store::RunEvent::kSkip, "precondition " + planned.path + " did not hold: " + result.reason};
      }
      if (result.status == StepStatus::kBlocked) {
        return {store::RunEvent::kBlock, planned.path + ": " + result.reason};
      }
    }

    // A failure or a block is noted before a stop, a denial or an expiry that came with it is
    // looked at: what already happened decides the run's status, and the gate must see it.
    std::optional<Ending> problem;
    for (const auto& planned : plan) {
      if (planned.phase != Phase::kActions) continue;
      auto result = perform(planned);
      note_problem(problem, planned, result);
      if (result.ending) return combine(problem, *result.ending, "before the postActions");
      if (problem) break;
    }
    for (const auto& planned : plan) {
      if (planned.phase != Phase::kPostActions) continue;
      auto result = perform(planned);
      note_problem(problem, planned, result);
      if (result.ending) return combine(problem, *result.ending, "during the postActions");
    }
    return problem ? *problem : Ending{};
  }

 private:
  struct StepResult {
    StepStatus status = StepStatus::kPassed;
    std::string reason;
    std::optional<Ending> ending;  // the run ends here: stopped, denied, expired, store error
  };

  // One execution of a step; its output is already cut to the cap it was given.
  struct Attempt {
    StepOutcome outcome;
    std::chrono::milliseconds duration{0};
  };

  // A step's attempts so far; a step that is not retried has exactly one.
  struct Attempts {
    int count = 0;
    Attempt last;
    std::string earlier;  // each failed attempt before `last`: its line, then its output
    std::chrono::milliseconds spent{0};  // every attempt's duration, the waits not counted
    std::string note;        // why no further attempt was made, for the step's output
    std::string short_note;  // the same, for its reason

    bool retried() const { return count > 1 || !short_note.empty(); }
  };

  static Level level_of(int number) {
    auto level = level_from_number(number);
    return level ? *level : Level::kSuggest;
  }

  // A failed step outweighs a blocked one: failures are the gate's evidence.
  static void note_problem(std::optional<Ending>& problem, const PlannedStep& planned,
                           const StepResult& result) {
    if (result.status == StepStatus::kFailed) {
      if (!problem || problem->event != store::RunEvent::kFail) {
        problem = Ending{store::RunEvent::kFail, planned.path + ": " + result.reason};
      }
    } else if (result.status == StepStatus::kBlocked && !problem) {
      problem = Ending{store::RunEvent::kBlock, planned.path + ": " + result.reason};
    }
  }

  // A stop, denial or expiry after a failure or a block ends the run with that problem's
  // status, and the reason says what cut the rest short. Only a store error (itself a
  // failure) outweighs a block.
  static Ending combine(const std::optional<Ending>& problem, const Ending& ending, std::string_view when) {
    if (!problem) return ending;
    if (ending.event == store::RunEvent::kFail && problem->event != store::RunEvent::kFail) {
      return ending;
    }
    Ending out = *problem;
    out.reason = out.reason.value_or("") + "; " + std::string(when) + ": " + ending.reason.value_or("");
    return out;
  }

  Ending ending_for(Decision decision) const {
    switch (decision) {
      case Decision::kDenied: return {store::RunEvent::kDeny, std::string(kDeniedReason)};
      case Decision::kExpired:
        return {store::RunEvent::kApprovalExpired,
                "not approved within " + approval_timeout_text(runner_.options_.approval_timeout)};
      case Decision::kReplaced: return {store::RunEvent::kApprovalExpired, std::string(kReplacedReason)};
      case Decision::kStopped:
      case Decision::kNone:
      case Decision::kApproved: break;
    }
    return stopped();
  }

  Ending stopped() const {
    std::lock_guard lock(runner_.mutex_);
    return {store::RunEvent::kStop, run_.stop_reason};
  }

  static Ending store_failure(const Error& error) {
    return {store::RunEvent::kFail, "the store refused to record the run: " + error.message};
  }

  // Under `lock` (on the runner's mutex_): until done() holds (true) or the injected clock
  // reaches `deadline` (false). recheck_deadlines() wakes it when the clock moved; the poll
  // only bounds a clock that moves without telling anyone.
  template <typename Done>
  bool wait_on_clock(std::unique_lock<std::mutex>& lock, std::chrono::steady_clock::time_point deadline,
                     Done done) {
    for (;;) {
      if (done()) return true;
      const auto now = runner_.clock_.steady();
      if (now >= deadline) return false;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
      runner_.changed_.wait_for(lock, std::min(left + std::chrono::milliseconds(1), runner_.options_.approval_poll));
    }
  }

  // Waits for a person's decision on the run (step unset) or on one step. The waiting run's
  // status is in the store before anyone can be asked; the decision is taken under mutex_,
  // and the first of approve, deny, the deadline, a later trigger or a stop wins.
  Decision await_person(const std::optional<std::string>& step_path, const std::string& description) {
    if (step_path) {
      auto waiting = runner_.with_store([&] { return runner_.runs_.wait_for_person(run_.started.id, description); });
      if (!waiting) {
        store_error_ = waiting.error();
        return Decision::kStopped;
      }
    }
    const Clock& clock = runner_.clock_;
    const auto deadline = clock.steady() + runner_.options_.approval_timeout;
    std::unique_lock lock(runner_.mutex_);
    // decision is not reset here: a run created waiting can be approved before its thread
    // gets here. A consumed approval is reset below.
    if (step_path) runner_.advance(run_, store::RunEvent::kAskApproval);
    run_.approval.reset();
    run_.waiting_description = description;
    run_.waiting_step = step_path;
    run_.waiting_since = clock.unix_seconds();
    run_.approval_deadline = *run_.waiting_since + runner_.options_.approval_timeout.count();
    runner_.changed_.notify_all();
    const bool decided = wait_on_clock(lock, deadline, [&] {
      if (run_.stop.stop_requested()) run_.decision = Decision::kStopped;
      return run_.decision != Decision::kNone;
    });
    if (!decided) run_.decision = Decision::kExpired;
    const Decision decision = run_.decision;
    if (decision != Decision::kApproved) return decision;
    run_.decision = Decision::kNone;

    lock.unlock();
    auto approved = runner_.with_store([&] { return runner_.runs_.approve(run_.started.id); });
    lock.lock();
    if (approved) {
      runner_.advance(run_, store::RunEvent::kApprove);
    } else {
      store_error_ = approved.error();
    }
    run_.waiting_description.reset();
    run_.waiting_step.reset();
    run_.waiting_since.reset();
    run_.approval_deadline.reset();
    run_.approval = approved;
    runner_.changed_.notify_all();
    return approved ? Decision::kApproved : Decision::kStopped;
  }

  // Between two attempts of a failed action the run stays running; the wait is on the
  // injected clock as an approval's is. False when a stop ended it.
  bool wait_to_retry() {
    const Clock& clock = runner_.clock_;
    std::unique_lock lock(runner_.mutex_);
    const auto deadline = clock.steady() + retry_.interval;
    run_.retry_at = clock.unix_seconds() + retry_.interval.count();
    runner_.changed_.notify_all();
    const bool stopped = wait_on_clock(lock, deadline, [&] { return run_.stop.stop_requested(); });
    run_.retry_at.reset();
    return !stopped;
  }

  StepContext context_for(const PlannedStep& planned) const {
    StepContext context;
    context.path = planned.path;
    const std::size_t left = output_used_ >= store::kRunOutputCap ? 0 : store::kRunOutputCap - output_used_;
    context.output_cap = std::min(store::kStepOutputCap, left);
    context.stop = run_.stop.get_token();
    context.physical_input = run_.settings.physical_input;
    context.agent_desktop_path = run_.settings.agent_desktop_path;
    return context;
  }

  store::StepRecord record_for(const PlannedStep& planned) const {
    store::StepRecord record;
    record.seq = planned.seq;
    record.phase = std::string(record_phase(planned.phase));
    record.type = std::string(to_string(step_type(*planned.step)));
    record.name = planned.step->description;
    return record;
  }

  std::optional<Ending> record(const store::StepRecord& step) {
    auto recorded = runner_.with_store([&] { return runner_.runs_.record_step(run_.started.id, step); });
    if (!recorded) return store_failure(recorded.error());
    return std::nullopt;
  }

  // The step that waited and was not approved: recorded, and the run ends.
  StepResult not_approved(const PlannedStep& planned, Decision decision) {
    StepResult result;
    result.ending = store_error_ ? store_failure(*store_error_) : ending_for(decision);
    if (store_error_) return result;
    store::StepRecord step = record_for(planned);
    step.status = decision == Decision::kStopped ? "stopped" : "blocked";
    step.delivery = std::string(to_string(Delivery::kNotDelivered));
    if (decision == Decision::kExpired) step.error_code = std::string(to_string(ErrorCode::kTimeout));
    step.reason = result.ending->reason;
    if (auto failed = record(step)) result.ending = failed;
    return result;
  }

  // Runs the step once; `reserved` bytes of its output budget hold earlier attempts.
  Attempt act(const PlannedStep& planned, StepMode mode, std::size_t reserved) {
    StepContext context = context_for(planned);
    context.output_cap = context.output_cap > reserved ? context.output_cap - reserved : 0;
    const auto started = runner_.clock_.steady();
    Attempt attempt;
    attempt.outcome = mode == StepMode::kDryRun ? runner_.executor_.dry_run(*planned.step, context)
                                                : runner_.executor_.execute(*planned.step, context);
    attempt.duration =
        std::chrono::duration_cast<std::chrono::milliseconds>(runner_.clock_.steady() - started);
    store::CappedOutput output = store::cap_output(attempt.outcome.output, context.output_cap);
    attempt.outcome.output = std::move(output.text);
    attempt.outcome.output_truncated = attempt.outcome.output_truncated || output.truncated;
    return attempt;
  }

  // A step: asked for first when it must be, then run. A main action that ran for real and
  // failed is tried again while the definition allows: the run stays running between
  // attempts, completed steps are not repeated, and the step is recorded once, after its last
  // attempt, with the earlier attempts in its output. A stop, denial or expiry
  // before a retry leaves the step failed and ends the run.
  StepResult perform(const PlannedStep& planned) {
    if (run_.stop.stop_requested()) return {StepStatus::kStopped, "", stopped()};
    const StepMode mode = run_mode(level_, planned.phase, *planned.step);
    Attempts attempts;
    for (;;) {
      if (mode == StepMode::kAskFirst) {
        const Decision decision = await_person(planned.path, describe_step(*planned.step, planned.path));
        if (decision != Decision::kApproved) {
          if (attempts.count == 0) return not_approved(planned, decision);
          const Ending ending = store_error_ ? store_failure(*store_error_) : ending_for(decision);
          attempts.note = "; retry not approved: " + ending.reason.value_or("");
          attempts.short_note = "retry not approved";
          return record_attempts(planned, mode, attempts, ending);
        }
      }
      attempts.last = act(planned, mode, attempts.earlier.size());
      ++attempts.count;
      attempts.spent += attempts.last.duration;

      const bool retryable = planned.phase == Phase::kActions && mode != StepMode::kDryRun &&
                             attempts.last.outcome.status == StepStatus::kFailed &&
                             !run_.stop.stop_requested();
      if (!retryable) return record_attempts(planned, mode, attempts, std::nullopt);
      const std::int64_t now = runner_.clock_.unix_seconds();
      const RetryVerdict verdict = next_retry(retry_, attempts.count, now, run_.next_trigger_at);
      if (verdict == RetryVerdict::kNoAttemptsLeft) return record_attempts(planned, mode, attempts, std::nullopt);
      if (verdict == RetryVerdict::kWouldReachNextTrigger) {
        attempts.note = describe_verdict(retry_, verdict, now, run_.next_trigger_at);
        attempts.short_note = "retry skipped: the next trigger comes first";
        return record_attempts(planned, mode, attempts, std::nullopt);
      }
      spdlog::info("run {} step {} attempt {} of {} failed; retrying in {} s", run_.started.id, planned.seq,
                   attempts.count, retry_.attempts, retry_.interval.count());
      if (!wait_to_retry()) {
        const Ending ending = stopped();
        attempts.note = "; retry cancelled: " + ending.reason.value_or("");
        attempts.short_note = "retry cancelled";
        return record_attempts(planned, mode, attempts, ending);
      }
      attempts.earlier += describe_attempt(retry_, attempts.count, attempts.last.outcome) +
                          describe_verdict(retry_, verdict, now, run_.next_trigger_at) + "\n" +
                          attempts.last.outcome.output;
      if (!attempts.earlier.empty() && attempts.earlier.back() != '\n') attempts.earlier += '\n';
    }
  }

  // Records the step as its last attempt left it (with the earlier ones in its output), and
  // its inverse when it passed. `ending`: the run ends here whatever the step did.
  StepResult record_attempts(const PlannedStep& planned, StepMode mode, const Attempts& attempts,
                             std::optional<Ending> ending) {
    const Step& step = *planned.step;
    const StepOutcome& outcome = attempts.last.outcome;
    store::StepRecord record = record_for(planned);
    record.status = mode == StepMode::kDryRun && outcome.status == StepStatus::kPassed
                        ? "would_run"
                        : std::string(to_string(outcome.status));
    if (outcome.delivery) record.delivery = std::string(to_string(*outcome.delivery));
    if (outcome.error_code) record.error_code = std::string(to_string(*outcome.error_code));
    std::string reason = outcome.reason;
    std::string output = outcome.output;
    if (attempts.retried()) {
      reason += (reason.empty() ? "(attempt " : " (attempt ") + std::to_string(attempts.count) + " of " +
                std::to_string(retry_.attempts) +
                (attempts.short_note.empty() ? "" : "; " + attempts.short_note) + ")";
      output = attempts.earlier + describe_attempt(retry_, attempts.count, outcome) + attempts.note + "\n" + output;
    }
    if (!reason.empty()) record.reason = reason;
    record.duration_ms = attempts.spent.count();
    store::CappedOutput capped = store::cap_output(output, context_for(planned).output_cap);
    record.output = std::move(capped.text);
    record.output_truncated = capped.truncated || outcome.output_truncated;
    output_used_ += record.output.size();
    const bool counts_as_check = mode == StepMode::kRun && planned.phase != Phase::kPreconditions &&
                                 step_type(step) == StepType::kCheck;
    if (counts_as_check && outcome.status != StepStatus::kStopped) record.check_passed = outcome.check_passed;
    spdlog::info("run {} step {} {} {} in {} ms", run_.started.id, planned.seq, record.type, record.status,
                 record.duration_ms);
    if (auto failed = this->record(record)) return {outcome.status, reason, failed};

    if (mode == StepMode::kRun && outcome.status == StepStatus::kPassed && outcome.undo) {
      store::UndoRecord undo = *outcome.undo;
      undo.seq = planned.seq;
      auto recorded = runner_.with_store([&] { return runner_.runs_.record_undo(run_.started.id, undo); });
      if (!recorded) return {outcome.status, reason, store_failure(recorded.error())};
    }
    if (ending) return {outcome.status, reason, std::move(ending)};
    if (outcome.status == StepStatus::kStopped || run_.stop.stop_requested()) {
      return {outcome.status, reason, stopped()};
    }
    return {outcome.status, reason, std::nullopt};
  }

  Runner& runner_;
  ActiveRun& run_;
  Level level_;
  RetryPolicy retry_;
  std::size_t output_used_ = 0;
  std::optional<Error> store_error_;
};

Runner::Runner(store::Database& db, StepExecutor& executor, const Clock& clock, RunnerOptions options)
    : db_(db),
      executor_(executor),
      clock_(clock),
      options_(options),
      runs_(db, clock),
      automations_(db, clock),
      settings_(db, clock) {
  db_.defer_checkpoints();
}

Runner::~Runner() {
  std::unique_lock lock(mutex_);
  shutting_down_ = true;
  for (auto& [id, run] : active_) request_stop(*run, std::string(kShutdownReason));
  changed_.wait(lock, [&] { return active_.empty(); });
  reap_finished_threads();
}

void Runner::request_stop(ActiveRun& run, std::string reason) {
  if (!run.stop.stop_requested()) {
    run.stop_reason = std::move(reason);
    run.stop.request_stop();
  }
  changed_.notify_all();
}

void Runner::reap_finished_threads() {
  for (auto& run : ended_) {
    if (run->thread.joinable()) run->thread.join();
  }
  ended_.clear();
}

Result<store::RunRecord> Runner::start(std::int64_t automation_id, const StartRequest& request) {
  auto settings = with_store([&] { return read_settings(settings_); });
  if (!settings) return std::move(settings).take_error();
  if (!settings->automations_enabled) {
    return make_error(ErrorCode::kPolicyDenied, "automations are switched off (automations_enabled is false)",
                      {{"reason", "automations_disabled"}},
                      "turn them on with: companyos settings set automations_enabled true");
  }
  auto automation = with_store([&] { return automations_.get(automation_id); });
  if (!automation) return std::move(automation).take_error();
  if (!automation->enabled) {
    return make_error(ErrorCode::kPolicyDenied, "automation " + std::to_string(automation_id) + " is disabled",
                      {{"reason", "automation_disabled"}, {"id", automation_id}},
                      "enable it with: companyos automation enable " + std::to_string(automation_id));
  }

  const bool by_person = request.trigger == Trigger::kManual;
  store::RunStart run_start;
  run_start.automation_id = automation_id;
  run_start.starter = by_person ? store::RunStarter::kPerson : store::RunStarter::kSchedule;
  run_start.max_level = settings->max_level;
  if (!by_person) {
    auto level = level_from_number(automation->level);
    const UnattendedSettings unattended{settings->unattended, settings->max_level, settings->automations_enabled};
    if (!level || !may_start_unattended(*level, unattended)) {
      run_start.waiting_description =
          "scheduled run of \"" + automation->name + "\" waits for a person's approval";
    }
  }

  std::unique_lock lock(mutex_);
  if (shutting_down_) return make_error(ErrorCode::kConflict, "the runner is shutting down");
  reap_finished_threads();
  for (;;) {
    const bool undoing = undoing_.contains(automation_id);
    const auto active = active_.find(automation_id);
    if (!undoing && active == active_.end()) break;
    const std::int64_t busy_run = undoing ? 0 : active->second->started.id;
    if (by_person) {
      return make_error(ErrorCode::kConflict,
                        undoing ? "automation " + std::to_string(automation_id) + " is being undone"
                                : "automation " + std::to_string(automation_id) + " already has run " +
                                      std::to_string(busy_run) + " " +
                                      std::string(store::to_string(active->second->status)),
                        {{"id", automation_id}, {"run_id", busy_run}}, "wait for it to end, or stop it first");
    }
    ActiveRun* waiting = undoing ? nullptr : active->second.get();
    if (waiting != nullptr && waiting->status == store::RunStatus::kWaiting && !waiting->waiting_step &&
        waiting->decision == Decision::kNone) {
      // The next trigger came while the last one still waits for its approval: that one ends.
      waiting->decision = Decision::kReplaced;
      changed_.notify_all();
      auto kept = active->second;
      changed_.wait(lock, [&] { return kept->ended; });
      continue;
    }
    return with_store([&] {
      return runs_.record_skipped(run_start, undoing ? "an undo of the automation was running"
                                                     : "run " + std::to_string(busy_run) + " was still active");
    });
  }

  auto started = with_store([&] { return runs_.start(run_start); });
  if (!started) return started;
  auto revision = with_store([&] { return automations_.revision(automation_id, started->revision); });
  auto definition = revision ? parse_definition(revision->definition) : Result<Definition>(revision.error());
  if (!definition) {
    auto failed = with_store([&] {
      return runs_.finish(started->id, store::RunEvent::kFail, definition.error().message);
    });
    if (!failed) return std::move(failed).take_error();
    return failed->run;
  }

  auto run = std::make_shared<ActiveRun>();
  run->started = *started;
  run->automation_name = automation->name;
  run->definition = std::move(definition).value();
  run->settings = *settings;
  run->next_trigger_at = request.next_trigger_at;
  run->status = started->status;
  if (started->status == store::RunStatus::kWaiting) {
    run->waiting_description = started->waiting_description;
    run->waiting_since = started->waiting_since;
    run->approval_deadline = started->waiting_since.value_or(started->started_at) + options_.approval_timeout.count();
  }
  active_[automation_id] = run;
  run->thread = std::thread([this, run] { run_thread(run); });
  return *started;
}

void Runner::run_thread(std::shared_ptr<ActiveRun> run) {
  RunExecution execution(*this, *run);
  const auto ending = execution.execute();
  auto finished = with_store([&] { return runs_.finish(run->started.id, ending.event, ending.reason); });
  if (!finished) {
    spdlog::error("run {} could not be finished: {}", run->started.id, finished.error().message);
  } else {
    spdlog::info("run {} of automation {} ended {}", run->started.id, run->started.automation_id,
                 store::to_string(finished->run.status));
  }
  {
    std::lock_guard lock(mutex_);
    run->ended = true;
    run->final_record = finished ? Result<store::RunRecord>(finished->run) : Result<store::RunRecord>(finished.error());
    if (finished) {
      run->status = finished->run.status;
    } else {
      advance(*run, ending.event);
    }
    const auto found = active_.find(run->started.automation_id);
    if (found != active_.end() && found->second == run) active_.erase(found);
    ended_.push_back(run);
    changed_.notify_all();
  }
  // The run is recorded and reported: the WAL's checkpoint costs no step anything now.
  if (auto st = with_store([&] { return db_.checkpoint(); }); !st) {
    spdlog::warn("store checkpoint after run {}: {}", run->started.id, st.error().message);
  }
}

std::shared_ptr<Runner::ActiveRun> Runner::find_run(std::int64_t run_id) const {
  for (const auto& [id, run] : active_) {
    if (run->started.id == run_id) return run;
  }
  return nullptr;
}

Result<store::RunRecord> Runner::decide_waiting(std::int64_t run_id, bool approve) {
  std::unique_lock lock(mutex_);
  auto run = find_run(run_id);
  if (!run || run->status != store::RunStatus::kWaiting || run->decision != Decision::kNone) {
    lock.unlock();
    auto stored = with_store([&] { return runs_.get(run_id); });
    if (!stored) return std::move(stored).take_error();
    return make_error(ErrorCode::kConflict,
                      "run " + std::to_string(run_id) + " is " + std::string(store::to_string(stored->status)) +
                          ", not waiting for a person",
                      {{"run_id", run_id}, {"status", stored->status}});
  }
  run->decision = approve ? Decision::kApproved : Decision::kDenied;
  changed_.notify_all();
  if (approve) {
    changed_.wait(lock, [&] { return run->approval.has_value() || run->ended; });
    if (run->approval) return *run->approval;
  } else {
    changed_.wait(lock, [&] { return run->ended; });
  }
  return *run->final_record;
}

Result<store::RunRecord> Runner::approve(std::int64_t run_id) { return decide_waiting(run_id, true); }

Result<store::RunRecord> Runner::deny(std::int64_t run_id) { return decide_waiting(run_id, false); }

Result<store::RunRecord> Runner::stop(std::int64_t automation_id) {
  std::unique_lock lock(mutex_);
  const auto found = active_.find(automation_id);
  if (found == active_.end()) {
    lock.unlock();
    auto automation = with_store([&] { return automations_.get(automation_id); });
    if (!automation) return std::move(automation).take_error();
    return make_error(ErrorCode::kConflict, "automation " + std::to_string(automation_id) + " has no active run",
                      {{"id", automation_id}});
  }
  auto run = found->second;
  request_stop(*run, "stopped by a person");
  changed_.wait(lock, [&] { return run->ended; });
  return *run->final_record;
}

Result<StopAllOutcome> Runner::stop_all() {
  auto disabled = with_store([&] { return automations_.disable_all(); });
  if (!disabled) return std::move(disabled).take_error();
  StopAllOutcome outcome;
  outcome.disabled = *disabled;
  std::unique_lock lock(mutex_);
  std::vector<std::shared_ptr<ActiveRun>> stopping;
  for (auto& [id, run] : active_) {
    request_stop(*run, "stopped by stop-all");
    stopping.push_back(run);
  }
  changed_.wait(lock, [&] {
    return std::all_of(stopping.begin(), stopping.end(), [](const auto& run) { return run->ended; });
  });
  std::sort(stopping.begin(), stopping.end(),
            [](const auto& a, const auto& b) { return a->started.id < b->started.id; });
  for (const auto& run : stopping) {
    if (*run->final_record) outcome.stopped.push_back(run->final_record->value());
  }
  return outcome;
}

Result<UndoOutcome> Runner::undo(std::int64_t run_id) {
  auto run = with_store([&] { return runs_.get(run_id); });
  if (!run) return std::move(run).take_error();
  const std::int64_t automation_id = run->automation_id;
  {
    std::lock_guard lock(mutex_);
    if (active_.contains(automation_id) || undoing_.contains(automation_id)) {
      return make_error(ErrorCode::kConflict,
                        "automation " + std::to_string(automation_id) + " has a run or an undo in progress",
                        {{"id", automation_id}, {"run_id", run_id}}, "wait for it to end, or stop it first");
    }
    undoing_.insert(automation_id);
  }
  struct UndoingGuard {
    Runner& runner;
    std::int64_t id;
    ~UndoingGuard() {
      std::lock_guard lock(runner.mutex_);
      runner.undoing_.erase(id);
      runner.changed_.notify_all();
    }
  } guard{*this, automation_id};

  // Refused before any inverse runs (revert() would refuse these too, but only afterwards).
  if (auto undoable = store::check_undoable(*run); !undoable) return std::move(undoable).take_error();

  auto revision = with_store([&] { return automations_.revision(automation_id, run->revision); });
  if (!revision) return std::move(revision).take_error();
  auto definition = parse_definition(revision->definition);
  if (!definition) return std::move(definition).take_error();
  auto records = with_store([&] { return runs_.undo_records(run_id); });
  if (!records) return std::move(records).take_error();
  // An earlier undo that failed part-way took these back already; they do not run again.
  auto already = with_store([&] { return runs_.undone_seqs(run_id); });
  if (!already) return std::move(already).take_error();
  auto detail = with_store([&] { return runs_.detail(run_id); });
  if (!detail) return std::move(detail).take_error();
  auto settings = with_store([&] { return read_settings(settings_); });
  if (!settings) return std::move(settings).take_error();

  UndoOutcome outcome;
  for (const auto& step : detail->steps) {
    const Step* defined = step_at_seq(*definition, step.seq);
    if (step.status == "passed" && defined != nullptr && effect_of(*defined) == Effect::kIrreversible) {
      outcome.not_reversible.push_back(step.seq);
    }
  }
  // "reverted" says the run's effects were taken back; with no inverse recorded nothing
  // would be, and the run would still count against the gate and demote its automation.
  if (records->empty()) {
    return make_error(ErrorCode::kConflict,
                      "run " + std::to_string(run_id) + " recorded nothing that can be undone",
                      {{"run_id", run_id}, {"status", run->status}, {"not_reversible", outcome.not_reversible}},
                      "a level-1 dry run, or a run whose steps with an effect are all irreversible, has no inverse");
  }
  const auto plan = plan_steps(*definition);
  for (const auto& record : *records) {
    if (std::find(already->begin(), already->end(), record.seq) != already->end()) {
      outcome.undone.push_back(record.seq);
      continue;
    }
    const Step* step = step_at_seq(*definition, record.seq);
    if (step == nullptr) {
      return make_error(ErrorCode::kInternal, "run " + std::to_string(run_id) + " records an undo for step " +
                                                  std::to_string(record.seq) + ", which its revision lacks",
                        {{"seq", record.seq}, {"undone", outcome.undone}});
    }
    StepContext context;
    context.path = plan.at(static_cast<std::size_t>(record.seq - 1)).path;
    context.physical_input = settings->physical_input;
    context.agent_desktop_path = settings->agent_desktop_path;
    if (auto done = executor_.undo(*step, record, context); !done) {
      Error error = std::move(done).take_error();
      if (!error.details.is_object()) error.details = nlohmann::json::object();
      error.details["seq"] = record.seq;
      error.details["undone"] = outcome.undone;
      error.message = "undo of " + context.path + " failed: " + error.message;
      return error;
    }
    spdlog::info("run {} step {} undone", run_id, record.seq);
    outcome.undone.push_back(record.seq);
    if (auto marked = with_store([&] { return runs_.mark_undone(run_id, record.seq); }); !marked) {
      Error error = std::move(marked).take_error();
      error.message = "undo of " + context.path + " ran, but it could not be recorded: " + error.message;
      error.details = {{"seq", record.seq}, {"undone", outcome.undone}};
      return error;
    }
  }
  auto reverted = with_store([&] { return runs_.revert(run_id, "undone by a person"); });
  if (!reverted) return std::move(reverted).take_error();
  outcome.run = reverted->run;
  outcome.demoted = reverted->demoted;
  return outcome;
}

std::vector<ActiveRunInfo> Runner::active() const {
  std::lock_guard lock(mutex_);
  std::vector<ActiveRunInfo> out;
  for (const auto& [id, run] : active_) {
    if (run->ended) continue;
    ActiveRunInfo info;
    info.run_id = run->started.id;
    info.automation_id = id;
    info.automation_name = run->automation_name;
    info.level = run->started.level;
    info.status = run->status;
    info.started_at = run->started.started_at;
    info.waiting_description = run->waiting_description;
    info.waiting_step = run->waiting_step;
    info.waiting_since = run->waiting_since;
    info.approval_deadline = run->approval_deadline;
    info.retry_at = run->retry_at;
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.run_id < b.run_id; });
  return out;
}

void Runner::recheck_deadlines() {
  std::lock_guard lock(mutex_);
  changed_.notify_all();
}

void Runner::wait_idle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return active_.empty(); });
  reap_finished_threads();
}

}  // namespace companyos::automation
