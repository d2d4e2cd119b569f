#include "automation/runner.h"

#include <algorithm>
#include <thread>
#include <utility>

#include <spdlog/spdlog.h>

#include "automation/levels.h"
#include "automation/run/active_run.h"

namespace companyos::automation {
namespace {

constexpr std::string_view kShutdownReason = "the daemon stopped";

}  // namespace

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
  if (auto st = record_unrecorded_ends(); !st) {
    spdlog::error("{} run end(s) not recorded at shutdown (the next daemon marks them failed): {}",
                  unrecorded_.size(), st.error().message);
  }
}

Status Runner::record_unrecorded_ends() {
  while (!unrecorded_.empty()) {
    UnrecordedEnd& end = unrecorded_.front();
    auto written = with_store([&]() -> Status {
      if (end.step) {
        auto st = runs_.record_step(end.run_id, *end.step);
        // CONFLICT: that seq is recorded already (the first write did land).
        if (!st && st.error().code != ErrorCode::kConflict) return st;
        end.step.reset();
      }
      auto finished = runs_.finish(end.run_id, end.event, end.reason, end.finished_at);
      if (!finished) return std::move(finished).take_error();
      return ok_status();
    });
    if (!written) return written;
    spdlog::info("run {}: its end, refused by the store before, is recorded now", end.run_id);
    unrecorded_.erase(unrecorded_.begin());
  }
  return ok_status();
}

const Runner::UnrecordedEnd* Runner::unrecorded_end_of(std::int64_t automation_id) const {
  for (const UnrecordedEnd& end : unrecorded_) {
    if (end.automation_id == automation_id) return &end;
  }
  return nullptr;
}

Error Runner::unrecorded_error(const UnrecordedEnd& end, const Error& cause) const {
  Error error = cause;
  error.message = "run " + std::to_string(end.run_id) + " of automation " + std::to_string(end.automation_id) +
                  " has ended, but the store could not record its end yet: " + cause.message;
  if (!error.details.is_object()) error.details = nlohmann::json::object();
  error.details["run_id"] = end.run_id;
  error.details["id"] = end.automation_id;
  error.suggestion = "free space where the store lives; the run's end is written as soon as the store "
                     "takes writes again";
  return error;
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

namespace {

// Who starts the run, at which ceiling, and — for a schedule's or an agent's start of an
// automation not free to run unattended — what its wait for a person says.
store::RunStart run_start_for(const store::AutomationRecord& automation, const RunSettings& settings,
                              Trigger trigger) {
  store::RunStart run_start;
  run_start.automation_id = automation.id;
  run_start.starter = trigger == Trigger::kManual     ? store::RunStarter::kPerson
                      : trigger == Trigger::kSchedule ? store::RunStarter::kSchedule
                                                      : store::RunStarter::kAgent;
  run_start.max_level = settings.max_level;
  if (trigger != Trigger::kManual) {
    auto level = level_from_number(automation.level);
    const UnattendedSettings unattended{settings.unattended, settings.max_level, settings.automations_enabled};
    if (!level || !may_start_unattended(*level, unattended)) {
      run_start.waiting_description =
          trigger == Trigger::kSchedule
              ? "scheduled run of \"" + automation.name + "\" waits for a person's approval"
              : "an agent started \"" + automation.name + "\"; the run waits for a person's approval";
    }
  }
  return run_start;
}

}  // namespace

struct Runner::Startable {
  RunSettings settings;
  store::AutomationRecord automation;
};

Result<Runner::Startable> Runner::startable(std::int64_t automation_id) const {
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
  return Startable{std::move(settings).value(), std::move(automation).value()};
}

std::optional<Result<store::RunRecord>> Runner::make_room(std::unique_lock<std::mutex>& lock,
                                                          const store::RunStart& run_start, bool scheduled) {
  const std::int64_t automation_id = run_start.automation_id;
  for (;;) {
    const bool undoing = undoing_.contains(automation_id);
    const auto active = active_.find(automation_id);
    if (!undoing && active == active_.end()) return std::nullopt;
    const std::int64_t busy_run = undoing ? 0 : active->second->started.id;
    // Only the scheduler's trigger replaces a run left waiting or is recorded skipped.
    if (!scheduled) {
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
}

Result<store::RunRecord> Runner::record_start(const store::RunStart& run_start) {
  auto started = with_store([&] { return runs_.start(run_start); });
  if (!started && started.error().code == ErrorCode::kConflict && started.error().details.contains("run_id")) {
    // No thread of this runner has the run (active_ was checked before): a previous daemon
    // left it active and the restart could not mark it failed (the disk was full then).
    const auto orphan = started.error().details["run_id"].get<std::int64_t>();
    auto marked = with_store([&] {
      return runs_.finish(orphan, store::RunEvent::kFail, std::string(store::kInterruptedReason));
    });
    if (!marked) return std::move(marked).take_error();
    spdlog::warn("run {} left active by a previous daemon marked failed ({})", orphan, store::kInterruptedReason);
    started = with_store([&] { return runs_.start(run_start); });
  }
  return started;
}

Result<store::RunRecord> Runner::launch(const store::RunRecord& started, Startable startable,
                                        const StartRequest& request) {
  auto revision = with_store([&] { return automations_.revision(started.automation_id, started.revision); });
  auto definition = revision ? parse_definition(revision->definition) : Result<Definition>(revision.error());
  if (!definition) {
    auto failed = with_store([&] {
      return runs_.finish(started.id, store::RunEvent::kFail, definition.error().message);
    });
    if (!failed) return std::move(failed).take_error();
    return failed->run;
  }
  auto run = std::make_shared<ActiveRun>();
  run->started = started;
  run->automation_name = startable.automation.name;
  run->definition = std::move(definition).value();
  run->settings = std::move(startable.settings);
  run->next_trigger_at = request.next_trigger_at;
  run->status = started.status;
  if (started.status == store::RunStatus::kWaiting) {
    run->waiting_description = started.waiting_description;
    run->waiting_since = started.waiting_since;
    run->approval_deadline = started.waiting_since.value_or(started.started_at) + options_.approval_timeout.count();
  }
  active_[started.automation_id] = run;
  run->thread = std::thread([this, run] { run_thread(run); });
  return started;
}

Result<store::RunRecord> Runner::start(std::int64_t automation_id, const StartRequest& request) {
  auto startable = this->startable(automation_id);
  if (!startable) return std::move(startable).take_error();
  const store::RunStart run_start = run_start_for(startable->automation, startable->settings, request.trigger);

  std::unique_lock lock(mutex_);
  if (shutting_down_) return make_error(ErrorCode::kConflict, "the runner is shutting down");
  reap_finished_threads();
  if (auto st = record_unrecorded_ends(); !st) {
    if (const UnrecordedEnd* end = unrecorded_end_of(automation_id)) return unrecorded_error(*end, st.error());
  }
  if (auto ended = make_room(lock, run_start, request.trigger == Trigger::kSchedule)) return std::move(*ended);
  auto started = record_start(run_start);
  if (!started) return started;
  return launch(*started, std::move(startable).value(), request);
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
  if (run && run->question) {
    return make_error(ErrorCode::kConflict,
                      "run " + std::to_string(run_id) + " waits for an answer to a question, not for an approval",
                      {{"run_id", run_id}, {"status", "waiting"}},
                      "answer it: companyos run answer " + std::to_string(run_id) +
                          " …, or end the run: companyos automation stop " + std::to_string(run->started.automation_id));
  }
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
    const std::uint64_t answered_before = run->approvals_answered;
    changed_.wait(lock, [&] { return run->approvals_answered != answered_before || run->ended; });
    if (run->approvals_answered != answered_before) return *run->approval;
  } else {
    changed_.wait(lock, [&] { return run->ended; });
  }
  return *run->final_record;
}

Result<store::RunRecord> Runner::approve(std::int64_t run_id) { return decide_waiting(run_id, true); }

Result<store::RunRecord> Runner::deny(std::int64_t run_id) { return decide_waiting(run_id, false); }

Result<store::RunRecord> Runner::answer(std::int64_t run_id, const Answer& answer) {
  std::unique_lock lock(mutex_);
  auto run = find_run(run_id);
  if (!run || !run->question) {
    lock.unlock();
    auto stored = with_store([&] { return runs_.get(run_id); });
    if (!stored) return std::move(stored).take_error();
    return make_error(ErrorCode::kConflict,
                      "run " + std::to_string(run_id) + " is " + std::string(store::to_string(stored->status)) +
                          " and asks no question",
                      {{"run_id", run_id}, {"status", stored->status}});
  }
  if (auto problem = answer_problem(*run->question, answer)) {
    nlohmann::json details{{"run_id", run_id}, {"problem", *problem}, {"kind", to_string(run->question->kind)}};
    if (run->question->kind == QuestionKind::kSelect) details["options"] = run->question->options;
    return make_error(ErrorCode::kInvalidArgs, "that does not answer the question: " + *problem, std::move(details));
  }
  // Under mutex_, so the step cannot withdraw the question between this answer and the store.
  auto approved = with_store([&] { return runs_.approve(run_id); });
  if (!approved) return approved;
  advance(*run, store::RunEvent::kApprove);
  run->question.reset();
  run->answer = answer;
  run->waiting_description.reset();
  run->waiting_step.reset();
  run->waiting_since.reset();
  run->approval_deadline.reset();
  if (run->wake_step) run->wake_step();
  run->wake_step = nullptr;
  changed_.notify_all();
  return approved;
}

Result<store::RunRecord> Runner::stop(std::int64_t automation_id) {
  std::unique_lock lock(mutex_);
  const auto found = active_.find(automation_id);
  if (found == active_.end()) {
    if (auto st = record_unrecorded_ends(); !st) {
      if (const UnrecordedEnd* end = unrecorded_end_of(automation_id)) {
        Error error = unrecorded_error(*end, st.error());
        error.code = ErrorCode::kConflict;
        error.message = "automation " + std::to_string(automation_id) + " has no active run: " + error.message;
        return error;
      }
    }
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

std::optional<UnrecordedRun> Runner::unrecorded(std::int64_t run_id) const {
  std::lock_guard lock(mutex_);
  for (const UnrecordedEnd& end : unrecorded_) {
    if (end.run_id == run_id) return UnrecordedRun{end.status, end.finished_at, end.reason};
  }
  return std::nullopt;
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
    info.question = run->question;
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.run_id < b.run_id; });
  return out;
}

void Runner::recheck_deadlines() {
  std::lock_guard lock(mutex_);
  if (auto st = record_unrecorded_ends(); !st) {
    spdlog::warn("{} run end(s) still not recorded: {}", unrecorded_.size(), st.error().message);
  }
  changed_.notify_all();
}

void Runner::wait_idle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return active_.empty(); });
  reap_finished_threads();
}

}  // namespace companyos::automation
