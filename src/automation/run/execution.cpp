// One run on its own thread: its steps in order, the waits for a person and for retries,
// and its end recorded in the store.
#include <algorithm>
#include <chrono>
#include <utility>

#include <spdlog/spdlog.h>

#include "automation/action_retry.h"
#include "automation/levels.h"
#include "automation/run/active_run.h"
#include "automation/run_plan.h"
#include "automation/step_description.h"
#include "store/output_cap.h"

namespace companyos::automation {
namespace {

constexpr std::string_view kDeniedReason = "denied by a person";
constexpr std::string_view kReplacedReason = "not approved before the next scheduled trigger";

std::string approval_timeout_text(std::chrono::seconds timeout) {
  if (timeout.count() % 3600 == 0) return std::to_string(timeout.count() / 3600) + " h";
  if (timeout.count() % 60 == 0) return std::to_string(timeout.count() / 60) + " min";
  return std::to_string(timeout.count()) + " s";
}

}  // namespace

// One run from its first step to its end, on the run's thread.
class Runner::RunExecution {
 public:
  RunExecution(Runner& runner, ActiveRun& run)
      : runner_(runner),
        run_(run),
        level_(level_of(run.started.level)),
        retry_(retry_policy(run.definition)),
        questions_(*this) {}

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
    ++run_.approvals_answered;
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

  StepContext context_for(const PlannedStep& planned) {
    StepContext context;
    context.path = planned.path;
    context.run_id = run_.started.id;
    const std::size_t left = output_used_ >= store::kRunOutputCap ? 0 : store::kRunOutputCap - output_used_;
    context.output_cap = std::min(store::kStepOutputCap, left);
    context.stop = run_.stop.get_token();
    context.physical_input = run_.settings.physical_input;
    context.agent_desktop_path = run_.settings.agent_desktop_path;
    context.questions = &questions_;
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
    if (!recorded) {
      run_.unrecorded_step = step;
      return store_failure(recorded.error());
    }
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
    step_path_ = planned.path;
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

  // The questions of the step now running, put to the person as a wait of the run.
  class StepQuestions final : public PersonQuestions {
   public:
    explicit StepQuestions(RunExecution& execution) : execution_(execution) {}

    Status ask(const Question& question, std::int64_t deadline, std::function<void()> wake) override {
      Runner& runner = execution_.runner_;
      ActiveRun& run = execution_.run_;
      const std::string description = describe_question(question);
      auto waiting = runner.with_store([&] { return runner.runs_.wait_for_person(run.started.id, description); });
      if (!waiting) return std::move(waiting).take_error();
      std::lock_guard lock(runner.mutex_);
      runner.advance(run, store::RunEvent::kAskApproval);
      run.question = question;
      run.answer.reset();
      run.wake_step = std::move(wake);
      run.waiting_description = description;
      run.waiting_step = execution_.step_path_;
      run.waiting_since = runner.clock_.unix_seconds();
      run.approval_deadline = deadline;
      runner.changed_.notify_all();
      spdlog::info("run {} step {} asks the person a {} question", run.started.id, execution_.step_path_,
                   to_string(question.kind));
      return ok_status();
    }

    std::optional<Answer> take_answer() override {
      std::lock_guard lock(execution_.runner_.mutex_);
      return std::exchange(execution_.run_.answer, std::nullopt);
    }

    void withdraw() override {
      Runner& runner = execution_.runner_;
      ActiveRun& run = execution_.run_;
      std::lock_guard lock(runner.mutex_);
      run.answer.reset();
      if (!run.question) return;  // answered: the run already runs again
      run.question.reset();
      run.wake_step = nullptr;
      run.waiting_description.reset();
      run.waiting_step.reset();
      run.waiting_since.reset();
      run.approval_deadline.reset();
      // Under mutex_, as answer() does, so the two never both move the run on.
      auto resumed = runner.with_store([&] { return runner.runs_.resume(run.started.id); });
      if (resumed) {
        runner.advance(run, store::RunEvent::kApprove);
      } else {
        spdlog::error("run {}: its question ended, but the store could not record it: {}", run.started.id,
                      resumed.error().message);
      }
      runner.changed_.notify_all();
    }

   private:
    // "pi asks: Deploy now?" — the asker's words, which the person reads before answering.
    static std::string describe_question(const Question& question) {
      std::string text = "pi asks: " + (question.title.empty() ? std::string("a question") : question.title);
      if (!question.message.empty()) text += " — " + question.message;
      return text;
    }

    RunExecution& execution_;
  };

  Runner& runner_;
  ActiveRun& run_;
  Level level_;
  RetryPolicy retry_;
  std::size_t output_used_ = 0;
  std::optional<Error> store_error_;
  std::string step_path_;  // the step now running, for its questions
  StepQuestions questions_;
};

void Runner::run_thread(std::shared_ptr<ActiveRun> run) {
  RunExecution execution(*this, *run);
  const auto ending = execution.execute();
  const std::int64_t ended_at = clock_.unix_seconds();
  auto finished = with_store([&]() -> Result<store::FinishedRun> {
    if (run->unrecorded_step) {
      if (auto st = runs_.record_step(run->started.id, *run->unrecorded_step); !st) return std::move(st).take_error();
      run->unrecorded_step.reset();
    }
    return runs_.finish(run->started.id, ending.event, ending.reason, ended_at);
  });
  if (!finished) {
    spdlog::error("run {} ended, but the store could not record it (written once it can): {}", run->started.id,
                  finished.error().message);
  } else {
    spdlog::info("run {} of automation {} ended {}", run->started.id, run->started.automation_id,
                 store::to_string(finished->run.status));
  }
  {
    std::lock_guard lock(mutex_);
    run->ended = true;
    if (finished) {
      run->status = finished->run.status;
      run->final_record = finished->run;
    } else {
      advance(*run, ending.event);
      UnrecordedEnd end{run->started.automation_id, run->started.id, ending.event, ending.reason, ended_at,
                        std::move(run->unrecorded_step), run->status};
      run->final_record = Result<store::RunRecord>(unrecorded_error(end, finished.error()));
      unrecorded_.push_back(std::move(end));
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

}  // namespace companyos::automation
