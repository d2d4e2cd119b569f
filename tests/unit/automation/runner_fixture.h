// The runner's unit-test fixture: a clock the run threads may read while the test moves it,
// a scripted step executor, definition builders, and a store file with the runner's
// connection and the test's, as the daemon has them.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "automation/runner.h"
#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_ledger.h"
#include "store/run_store.h"
#include "store/settings.h"
#include "temp_dir.h"

namespace companyos::automation::runner_testing {

using namespace std::chrono_literals;
using nlohmann::json;

// FakeClock is not meant to be read by one thread while another advances it; run threads
// read this one while the test moves it.
class TestClock final : public Clock {
 public:
  std::chrono::system_clock::time_point wall() const override {
    std::lock_guard lock(mutex_);
    return wall_;
  }
  std::chrono::steady_clock::time_point steady() const override {
    std::lock_guard lock(mutex_);
    return steady_;
  }
  void advance(std::chrono::nanoseconds d) {
    std::lock_guard lock(mutex_);
    wall_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
    steady_ += d;
  }

 private:
  mutable std::mutex mutex_;
  std::chrono::system_clock::time_point wall_{std::chrono::seconds(1'700'000'000)};
  std::chrono::steady_clock::time_point steady_{};
};

// Steps are told apart by their description. Unscripted steps pass; a passed set_value or a
// command with an undo leaves an undo record, as the real executor does.
class FakeExecutor final : public StepExecutor {
 public:
  struct Script {
    StepOutcome outcome;
    bool block_until_stopped = false;
    std::chrono::milliseconds takes{0};
    // Waits in the step until release(), then returns the outcome: the test changes the
    // store meanwhile, while the run's thread is known not to use it.
    bool held = false;  // advanced on the clock, to see durations recorded
    // Puts this question to the person through the runner, then waits for the answer, a
    // stop, or give_up_question(); passes with the answer given as its output.
    std::optional<Question> ask = std::nullopt;
  };

  explicit FakeExecutor(TestClock& clock) : clock_(clock) {}

  void script(const std::string& description, Script script) { script_each(description, {std::move(script)}); }
  // One script per call, in order; the last one stays for any call after.
  void script_each(const std::string& description, std::vector<Script> scripts) {
    std::lock_guard lock(mutex_);
    scripts_[description] = std::deque<Script>(scripts.begin(), scripts.end());
  }
  // Its inverse fails `times` times (every time when unset), then succeeds.
  void fail_undo(const std::string& description, std::optional<int> times = std::nullopt) {
    std::lock_guard lock(mutex_);
    failing_undo_[description] = times;
  }

  StepOutcome execute(const Step& step, const StepContext& context) override {
    return act("execute", step, context);
  }
  StepOutcome dry_run(const Step& step, const StepContext& context) override {
    return act("dry_run", step, context);
  }
  Status undo(const Step& step, const store::UndoRecord& record, const StepContext&) override {
    std::lock_guard lock(mutex_);
    const std::string name = step.description.value_or("?");
    calls_.push_back("undo:" + name);
    undo_records_.push_back(record);
    const auto failing = failing_undo_.find(name);
    if (failing != failing_undo_.end() && failing->second.value_or(1) > 0) {
      if (failing->second) --*failing->second;
      return make_error(ErrorCode::kStaleRef, "the entry is gone");
    }
    return ok_status();
  }

  std::vector<std::string> calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  std::vector<store::UndoRecord> undo_records() const {
    std::lock_guard lock(mutex_);
    return undo_records_;
  }
  std::vector<std::size_t> caps() const {
    std::lock_guard lock(mutex_);
    return caps_;
  }
  bool blocked_in_step() const {
    std::lock_guard lock(mutex_);
    return blocked_;
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    wake_.notify_all();
  }
  // The step's asker goes on without an answer (pi's own limit for its question passed).
  void give_up_question() {
    std::lock_guard lock(mutex_);
    gave_up_ = true;
    wake_.notify_all();
  }
  // The deadline each question was asked with.
  std::optional<std::int64_t> question_deadline() const {
    std::lock_guard lock(mutex_);
    return question_deadline_;
  }

 private:
  StepOutcome act(const std::string& how, const Step& step, const StepContext& context) {
    std::unique_lock lock(mutex_);
    const std::string name = step.description.value_or("?");
    calls_.push_back(how + ":" + name);
    caps_.push_back(context.output_cap);
    Script script;
    if (auto found = scripts_.find(name); found != scripts_.end()) {
      script = found->second.front();
      if (found->second.size() > 1) found->second.pop_front();
    }
    if (script.takes.count() > 0) clock_.advance(script.takes);
    if (script.ask && how == "execute") return ask_person(lock, *script.ask, context);
    if (script.held) {
      blocked_ = true;
      wake_.wait(lock, [this] { return released_; });
      blocked_ = false;
    }
    if (script.block_until_stopped) {
      blocked_ = true;
      std::stop_token stop = context.stop;
      wake_.wait(lock, stop, [] { return false; });
      blocked_ = false;
      StepOutcome stopped;
      stopped.status = StepStatus::kStopped;
      stopped.reason = "stopped while it ran";
      return stopped;
    }
    StepOutcome outcome = script.outcome;
    if (how == "execute" && outcome.status == StepStatus::kPassed && !outcome.undo) {
      if (step_type(step) == StepType::kSetValue) {
        outcome.undo = store::UndoRecord{0, store::UndoKind::kRestoreValue, "previous of " + name, {}, {}};
      } else if (step_type(step) == StepType::kCommand && std::get<CommandStep>(step.body).undo) {
        outcome.undo = store::UndoRecord{0, store::UndoKind::kCommand, {}, "{}", {}};
      }
    }
    if (how == "execute" && step_type(step) == StepType::kCheck && !outcome.check_passed) {
      outcome.check_passed = outcome.status == StepStatus::kPassed;
    }
    return outcome;
  }

  // Never holds mutex_ while it calls the runner, which calls back into wake under its own.
  StepOutcome ask_person(std::unique_lock<std::mutex>& lock, const Question& question, const StepContext& context) {
    answered_ = false;
    gave_up_ = false;
    question_deadline_ = clock_.unix_seconds() + 600;
    const std::int64_t deadline = *question_deadline_;
    lock.unlock();
    Status asked = context.questions->ask(question, deadline, [this] {
      std::lock_guard woke(mutex_);
      answered_ = true;
      wake_.notify_all();
    });
    if (!asked) return outcome_of(StepStatus::kFailed, asked.error().message);
    lock.lock();
    std::stop_token stop = context.stop;
    wake_.wait(lock, stop, [this] { return answered_ || gave_up_; });
    const bool answered = answered_;
    lock.unlock();
    if (!answered) {
      context.questions->withdraw();
      return stop.stop_requested() ? outcome_of(StepStatus::kStopped, "stopped while it asked")
                                   : outcome_of(StepStatus::kPassed, "went on without an answer");
    }
    const auto answer = context.questions->take_answer();
    StepOutcome out = outcome_of(StepStatus::kPassed, "answered");
    if (answer) {
      out.output = answer->cancelled ? "cancelled"
                   : answer->confirmed ? (*answer->confirmed ? "yes" : "no")
                                       : answer->value.value_or("");
    }
    return out;
  }

  static StepOutcome outcome_of(StepStatus status, std::string reason) {
    StepOutcome out;
    out.status = status;
    out.reason = std::move(reason);
    return out;
  }

  TestClock& clock_;
  mutable std::mutex mutex_;
  bool answered_ = false;
  bool gave_up_ = false;
  std::optional<std::int64_t> question_deadline_;
  std::condition_variable_any wake_;
  std::map<std::string, std::deque<Script>> scripts_;
  std::map<std::string, std::optional<int>> failing_undo_;
  std::vector<std::string> calls_;
  std::vector<store::UndoRecord> undo_records_;
  std::vector<std::size_t> caps_;
  bool blocked_ = false;
  bool released_ = false;
};

// ---- definitions ------------------------------------------------------------------------

inline json set_value(const std::string& description) {
  return {{"type", "set_value"},
          {"app", "gtk3-fixture"},
          {"target", {{"role", "text"}, {"name", "Text"}}},
          {"value", "new text"},
          {"description", description}};
}
inline json click(const std::string& description) {
  return {{"type", "click"},
          {"app", "gtk3-fixture"},
          {"target", {{"role", "push button"}, {"name", "Write effect"}}},
          {"description", description}};
}
inline json press(const std::string& description) {
  return {{"type", "press"}, {"app", "gtk3-fixture"}, {"chord", "ctrl+s"}, {"description", description}};
}
inline json command(const std::string& description, bool with_undo) {
  json step = {{"type", "command"}, {"executable", "true"}, {"argv", json::array()}, {"cwd", "/"},
               {"description", description}};
  if (with_undo) step["undo"] = {{"executable", "true"}, {"argv", json::array()}, {"cwd", "/"}};
  return step;
}
inline json pi_step(const std::string& description) {
  return {{"type", "pi"}, {"prompt", "Summarise the log"}, {"cwd", "/"}, {"description", description}};
}
inline json file_check(const std::string& description) {
  return {{"type", "check"}, {"check", "file"}, {"path", "/var/tmp/effect"}, {"equals", "x"},
          {"description", description}};
}

inline json definition(const std::string& name, json pre, json actions, json post) {
  return {{"name", name}, {"preconditions", std::move(pre)}, {"actions", std::move(actions)},
          {"postActions", std::move(post)}};
}

inline StepOutcome outcome(StepStatus status, std::string reason = {}, std::optional<ErrorCode> code = {}) {
  StepOutcome out;
  out.status = status;
  out.reason = std::move(reason);
  out.error_code = code;
  if (status == StepStatus::kBlocked) out.delivery = Delivery::kNotDelivered;
  return out;
}

template <typename Condition>
bool eventually(Condition condition, std::chrono::milliseconds limit = 10s) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// A store file with two connections: the runner's own, and the test's for setting up and
// reading back, as the daemon has.
class RunnerTest : public ::testing::Test {
 protected:
  RunnerTest()
      : runner_db_(open()),
        db_(open()),
        automations_(db_, clock_),
        runs_(db_, clock_),
        ledger_(db_),
        settings_(db_, clock_),
        executor_(clock_) {}

  store::Database open() {
    auto db = store::Database::open(dir_.file("companyos.db"));
    EXPECT_TRUE(db.ok());
    return std::move(db).value();
  }

  Runner& runner() {
    if (!runner_) runner_ = std::make_unique<Runner>(runner_db_, executor_, clock_, options_);
    return *runner_;
  }

  std::int64_t create(const json& def, int level) {
    store::AutomationFields fields;
    fields.name = def["name"];
    fields.definition = def.dump();
    auto created = automations_.create(fields);
    EXPECT_TRUE(created.ok());
    if (level != 1) {
      EXPECT_TRUE(automations_.set_level(created->id, level).ok());
    }
    return created->id;
  }

  void allow_level_4() {
    ASSERT_TRUE(settings_.set("max_level", 4).ok());
    ASSERT_TRUE(settings_.set("unattended", true).ok());
  }

  store::RunRecord start(std::int64_t id, Trigger trigger = Trigger::kManual,
                         std::optional<std::int64_t> next_trigger_at = std::nullopt) {
    auto run = runner().start(id, StartRequest{trigger, next_trigger_at});
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    return run.ok() ? *run : store::RunRecord{};
  }

  store::RunDetail detail(std::int64_t run_id) {
    auto d = runs_.detail(run_id);
    EXPECT_TRUE(d.ok());
    return d.ok() ? *d : store::RunDetail{};
  }

  std::optional<store::RunStatus> status(std::int64_t run_id) {
    auto run = runs_.get(run_id);
    if (!run.ok()) return std::nullopt;
    return run->status;
  }

  bool waits_for_person(std::int64_t run_id) {
    return eventually([&] {
      for (const auto& active : runner().active()) {
        if (active.run_id == run_id && active.status == store::RunStatus::kWaiting) return true;
      }
      return false;
    });
  }

  static std::vector<std::string> statuses(const store::RunDetail& d) {
    std::vector<std::string> out;
    for (const auto& step : d.steps) out.push_back(step.status);
    return out;
  }

  testing::TempDir dir_;
  TestClock clock_;
  store::Database runner_db_;
  store::Database db_;
  store::AutomationStore automations_;
  store::RunStore runs_;
  store::RunLedger ledger_;
  store::Settings settings_;
  FakeExecutor executor_;
  RunnerOptions options_;
  std::unique_ptr<Runner> runner_;
};

}  // namespace companyos::automation::runner_testing
