#include "automation/runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_ledger.h"
#include "store/run_store.h"
#include "store/settings.h"
#include "temp_dir.h"

namespace companyos::automation {
namespace {

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
    std::chrono::milliseconds takes{0};  // advanced on the clock, to see durations recorded
  };

  explicit FakeExecutor(TestClock& clock) : clock_(clock) {}

  void script(const std::string& description, Script script) {
    std::lock_guard lock(mutex_);
    scripts_[description] = std::move(script);
  }
  void fail_undo(const std::string& description) {
    std::lock_guard lock(mutex_);
    failing_undo_.insert(description);
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
    if (failing_undo_.contains(name)) {
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

 private:
  StepOutcome act(const std::string& how, const Step& step, const StepContext& context) {
    std::unique_lock lock(mutex_);
    const std::string name = step.description.value_or("?");
    calls_.push_back(how + ":" + name);
    caps_.push_back(context.output_cap);
    const auto found = scripts_.find(name);
    Script script = found != scripts_.end() ? found->second : Script{};
    if (script.takes.count() > 0) clock_.advance(script.takes);
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

  TestClock& clock_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  std::map<std::string, Script> scripts_;
  std::set<std::string> failing_undo_;
  std::vector<std::string> calls_;
  std::vector<store::UndoRecord> undo_records_;
  std::vector<std::size_t> caps_;
  bool blocked_ = false;
};

// ---- definitions ------------------------------------------------------------------------

json set_value(const std::string& description) {
  return {{"type", "set_value"},
          {"app", "gtk3-fixture"},
          {"target", {{"role", "text"}, {"name", "Text"}}},
          {"value", "new text"},
          {"description", description}};
}
json click(const std::string& description) {
  return {{"type", "click"},
          {"app", "gtk3-fixture"},
          {"target", {{"role", "push button"}, {"name", "Write effect"}}},
          {"description", description}};
}
json press(const std::string& description) {
  return {{"type", "press"}, {"app", "gtk3-fixture"}, {"chord", "ctrl+s"}, {"description", description}};
}
json command(const std::string& description, bool with_undo) {
  json step = {{"type", "command"}, {"executable", "true"}, {"argv", json::array()}, {"cwd", "/"},
               {"description", description}};
  if (with_undo) step["undo"] = {{"executable", "true"}, {"argv", json::array()}, {"cwd", "/"}};
  return step;
}
json file_check(const std::string& description) {
  return {{"type", "check"}, {"check", "file"}, {"path", "/var/tmp/effect"}, {"equals", "x"},
          {"description", description}};
}

json definition(const std::string& name, json pre, json actions, json post) {
  return {{"name", name}, {"preconditions", std::move(pre)}, {"actions", std::move(actions)},
          {"postActions", std::move(post)}};
}

StepOutcome outcome(StepStatus status, std::string reason = {}, std::optional<ErrorCode> code = {}) {
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

  store::RunRecord start(std::int64_t id, Trigger trigger = Trigger::kManual) {
    auto run = runner().start(id, StartRequest{trigger});
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    return run.ok() ? *run : store::RunRecord{};
  }

  store::RunDetail detail(std::int64_t run_id) {
    auto d = runs_.detail(run_id);
    EXPECT_TRUE(d.ok());
    return d.ok() ? *d : store::RunDetail{};
  }

  std::string status(std::int64_t run_id) {
    auto run = runs_.get(run_id);
    return run.ok() ? run->status : "?";
  }

  bool waits_for_person(std::int64_t run_id) {
    return eventually([&] {
      for (const auto& active : runner().active()) {
        if (active.run_id == run_id && active.status == "waiting") return true;
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

// ---- every status path ------------------------------------------------------------------

TEST_F(RunnerTest, ActionsAndChecksThatPassSucceedSupervisedAtLevel3) {
  executor_.script("set", {outcome(StepStatus::kPassed), false, 250ms});
  const auto id = create(definition("ok", json::array(), {set_value("set"), click("click")}, {file_check("check")}), 3);
  const auto run = start(id);
  EXPECT_EQ(run.status, "running");
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "succeeded");
  EXPECT_TRUE(d.run.supervised);
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"passed", "passed", "passed"}));
  EXPECT_EQ(d.steps[0].seq, 1);
  EXPECT_EQ(d.steps[0].phase, "action");
  EXPECT_EQ(d.steps[0].type, "set_value");
  EXPECT_EQ(d.steps[0].duration_ms, 250);
  EXPECT_EQ(d.steps[2].phase, "post");
  ASSERT_EQ(d.checks.size(), 1U);
  EXPECT_TRUE(d.checks[0].passed);
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set", "execute:click", "execute:check"}));
}

TEST_F(RunnerTest, FirstFailedActionEndsTheActionsButPostActionsStillRun) {
  executor_.script("set", {outcome(StepStatus::kFailed, "exit status 3", ErrorCode::kInternal)});
  const auto id = create(definition("fails", json::array(), {set_value("set"), click("click")},
                                    {command("cleanup", false), file_check("check")}),
                         3);
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "failed");
  EXPECT_EQ(d.run.reason, "actions[0]: exit status 3");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set", "execute:cleanup", "execute:check"}));
  EXPECT_EQ(d.steps[0].error_code, "INTERNAL");
  auto rows = ledger_.rows(id);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ((*rows)[0].status, "failed");
}

TEST_F(RunnerTest, AFailedCheckFailsTheRunAndCountsAsAFailedCheck) {
  executor_.script("check", {outcome(StepStatus::kFailed, "the file holds something else")});
  const auto id = create(definition("check fails", json::array(), {click("click")}, {file_check("check")}), 3);
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "failed");
  ASSERT_EQ(d.checks.size(), 1U);
  EXPECT_FALSE(d.checks[0].passed);
  auto rows = ledger_.rows(id);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].checks_failed, 1);
}

TEST_F(RunnerTest, AFailingPreconditionSkipsTheRunAndNothingElseRuns) {
  executor_.script("pre", {outcome(StepStatus::kFailed, "no such file")});
  const auto id = create(definition("skip", {file_check("pre")}, {click("click")}, {command("cleanup", false)}), 3);
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "skipped");
  EXPECT_EQ(d.run.reason, "precondition preconditions[0] did not hold: no such file");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:pre"}));
  EXPECT_TRUE(d.checks.empty()) << "a precondition is not a postcondition for the gate";
}

TEST_F(RunnerTest, ARefusedTargetBlocksTheRunWithItsReasonAndPostActionsRun) {
  executor_.script("click", {outcome(StepStatus::kBlocked, "2 elements match push button \"Write effect\"",
                                     ErrorCode::kAmbiguousTarget)});
  const auto id = create(definition("blocked", json::array(), {click("click"), set_value("set")},
                                    {command("cleanup", false)}),
                         4);
  allow_level_4();
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "blocked");
  EXPECT_EQ(d.run.reason, "actions[0]: 2 elements match push button \"Write effect\"");
  EXPECT_EQ(d.steps[0].error_code, "AMBIGUOUS_TARGET");
  EXPECT_EQ(d.steps[0].delivery, "not_delivered");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:click", "execute:cleanup"}));
  auto automation = automations_.get(id);
  ASSERT_TRUE(automation.ok());
  EXPECT_EQ(automation->level, 4) << "a blocked run is no failure and changes no level";
}

TEST_F(RunnerTest, StopCancelsTheActiveStepAndSkipsPostActions) {
  executor_.script("long", {StepOutcome{}, true});
  const auto id = create(definition("stop me", json::array(), {command("long", false), click("click")},
                                    {command("cleanup", false)}),
                         3);
  const auto run = start(id);
  ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));

  auto stopped = runner().stop(id);
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->status, "stopped");
  EXPECT_EQ(stopped->reason, "stopped by a person");
  const auto d = detail(run.id);
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"stopped"}));
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:long"}));
  EXPECT_TRUE(runner().active().empty());
}

TEST_F(RunnerTest, StopWithoutAnActiveRunIsAConflictAndAnUnknownAutomationNotFound) {
  const auto id = create(definition("idle", json::array(), {click("click")}, json::array()), 3);
  auto idle = runner().stop(id);
  ASSERT_FALSE(idle.ok());
  EXPECT_EQ(idle.error().code, ErrorCode::kConflict);
  auto unknown = runner().stop(9999);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
}

// ---- approvals --------------------------------------------------------------------------

TEST_F(RunnerTest, Level2WaitsForEachEffectAndApproveContinues) {
  const auto id = create(definition("assist", {file_check("pre")}, {set_value("set"), click("click")},
                                    {file_check("check")}),
                         2);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  auto active = runner().active();
  ASSERT_EQ(active.size(), 1U);
  EXPECT_EQ(active[0].waiting_step, "actions[0]");
  EXPECT_EQ(active[0].waiting_description, "actions[0]: set");
  EXPECT_EQ(status(run.id), "waiting");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:pre"})) << "no effect before approval";

  auto approved = runner().approve(run.id);
  ASSERT_TRUE(approved.ok());
  EXPECT_EQ(approved->status, "running");
  ASSERT_TRUE(waits_for_person(run.id));  // the click has an effect too
  EXPECT_EQ(runner().active()[0].waiting_step, "actions[1]");
  ASSERT_TRUE(runner().approve(run.id).ok());
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "succeeded");
  EXPECT_FALSE(d.run.supervised) << "supervised means level 3";
  EXPECT_EQ(executor_.calls(),
            (std::vector<std::string>{"execute:pre", "execute:set", "execute:click", "execute:check"}));
}

TEST_F(RunnerTest, DenyEndsTheRunBlockedAndRunsNothingMore) {
  const auto id = create(definition("deny", json::array(), {set_value("set")}, {command("cleanup", true)}), 2);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));

  auto denied = runner().deny(run.id);
  ASSERT_TRUE(denied.ok());
  EXPECT_EQ(denied->status, "blocked");
  EXPECT_EQ(denied->reason, "denied by a person");
  const auto d = detail(run.id);
  ASSERT_EQ(d.steps.size(), 1U);
  EXPECT_EQ(d.steps[0].status, "blocked");
  EXPECT_EQ(d.steps[0].delivery, "not_delivered");
  EXPECT_TRUE(executor_.calls().empty());

  auto again = runner().approve(run.id);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::kConflict);
}

TEST_F(RunnerTest, AnApprovalNotGivenWithinAnHourEndsTheRunBlocked) {
  const auto id = create(definition("timeout", json::array(), {set_value("set")}, json::array()), 2);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  const auto active = runner().active();
  ASSERT_EQ(active.size(), 1U);
  EXPECT_EQ(*active[0].approval_deadline, *active[0].waiting_since + 3600);

  clock_.advance(59min);
  runner().recheck_deadlines();
  clock_.advance(1min);
  runner().recheck_deadlines();
  ASSERT_TRUE(eventually([&] { return status(run.id) == "blocked"; }));
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.reason, "not approved within 1 h");
  ASSERT_EQ(d.steps.size(), 1U);
  EXPECT_EQ(d.steps[0].error_code, "TIMEOUT");
  EXPECT_TRUE(executor_.calls().empty());
}

TEST_F(RunnerTest, PressAlwaysAsksEvenAtLevel3WhileOtherEffectsDoNot) {
  const auto id = create(definition("press", json::array(), {set_value("set"), press("save")}, json::array()), 3);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  EXPECT_EQ(runner().active()[0].waiting_step, "actions[1]");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set"}));
  ASSERT_TRUE(runner().approve(run.id).ok());
  runner().wait_idle();
  EXPECT_EQ(status(run.id), "succeeded");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set", "execute:save"}));
}

TEST_F(RunnerTest, AScheduledRunBelowLevel4WaitsAndApprovalMakesItSupervised) {
  const auto id = create(definition("scheduled", json::array(), {set_value("set")}, json::array()), 3);
  const auto run = start(id, Trigger::kSchedule);
  EXPECT_EQ(run.status, "waiting");
  EXPECT_FALSE(run.supervised);
  ASSERT_TRUE(waits_for_person(run.id));
  EXPECT_FALSE(runner().active()[0].waiting_step.has_value()) << "the whole run waits, not a step";

  auto approved = runner().approve(run.id);
  ASSERT_TRUE(approved.ok());
  EXPECT_TRUE(approved->supervised);
  runner().wait_idle();
  EXPECT_EQ(status(run.id), "succeeded");
}

TEST_F(RunnerTest, TheNextTriggerEndsAnUnapprovedScheduledRunBlocked) {
  const auto id = create(definition("replaced", json::array(), {set_value("set")}, json::array()), 3);
  const auto first = start(id, Trigger::kSchedule);
  const auto second = start(id, Trigger::kSchedule);
  EXPECT_EQ(status(first.id), "blocked");
  EXPECT_EQ(runs_.get(first.id)->reason, "not approved before the next scheduled trigger");
  EXPECT_EQ(second.status, "waiting");
  ASSERT_TRUE(runner().deny(second.id).ok());
}

TEST_F(RunnerTest, ALevel4ScheduledRunStartsUnattended) {
  allow_level_4();
  const auto id = create(definition("unattended", json::array(), {set_value("set")}, json::array()), 4);
  const auto run = start(id, Trigger::kSchedule);
  EXPECT_EQ(run.status, "running");
  runner().wait_idle();
  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "succeeded");
  EXPECT_FALSE(d.run.supervised);
}

// ---- one run per automation, several automations --------------------------------------

TEST_F(RunnerTest, ASecondManualStartWhileARunIsActiveIsAConflict) {
  executor_.script("long", {StepOutcome{}, true});
  const auto id = create(definition("busy", json::array(), {command("long", false)}, json::array()), 3);
  const auto other = create(definition("other", json::array(), {click("click")}, json::array()), 3);
  const auto run = start(id);
  ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));

  auto second = runner().start(id, StartRequest{});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, ErrorCode::kConflict);
  EXPECT_EQ(second.error().details["run_id"], run.id);

  const auto scheduled = start(id, Trigger::kSchedule);
  EXPECT_EQ(scheduled.status, "skipped") << "a trigger while a run is active is recorded skipped";

  const auto concurrent = start(other);  // another automation runs alongside
  ASSERT_TRUE(eventually([&] { return status(concurrent.id) == "succeeded"; }));
  ASSERT_TRUE(runner().stop(id).ok());
  runner().wait_idle();
}

TEST_F(RunnerTest, StartIsRefusedWhenAutomationsAreOffOrTheAutomationIsDisabled) {
  const auto id = create(definition("refused", json::array(), {click("click")}, json::array()), 3);
  ASSERT_TRUE(automations_.set_enabled(id, false).ok());
  auto disabled = runner().start(id, StartRequest{});
  ASSERT_FALSE(disabled.ok());
  EXPECT_EQ(disabled.error().code, ErrorCode::kPolicyDenied);
  EXPECT_EQ(disabled.error().details["reason"], "automation_disabled");

  ASSERT_TRUE(automations_.set_enabled(id, true).ok());
  ASSERT_TRUE(settings_.set("automations_enabled", false).ok());
  auto off = runner().start(id, StartRequest{});
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(off.error().details["reason"], "automations_disabled");

  ASSERT_TRUE(settings_.set("automations_enabled", true).ok());
  auto unknown = runner().start(4242, StartRequest{});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
  EXPECT_TRUE(executor_.calls().empty());
}

TEST_F(RunnerTest, StopAllDisablesEveryAutomationAndStopsEveryActiveRun) {
  executor_.script("long", {StepOutcome{}, true});
  const auto a = create(definition("a", json::array(), {command("long", false)}, json::array()), 3);
  const auto b = create(definition("b", json::array(), {set_value("set")}, json::array()), 2);
  const auto run_a = start(a);
  const auto run_b = start(b);
  ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));
  ASSERT_TRUE(waits_for_person(run_b.id));

  auto outcome = runner().stop_all();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->disabled, 2);
  ASSERT_EQ(outcome->stopped.size(), 2U);
  EXPECT_EQ(status(run_a.id), "stopped");
  EXPECT_EQ(status(run_b.id), "stopped");
  EXPECT_EQ(runs_.get(run_a.id)->reason, "stopped by stop-all");
  EXPECT_FALSE(automations_.get(a)->enabled);
  EXPECT_FALSE(automations_.get(b)->enabled);
}

// ---- undo -------------------------------------------------------------------------------

TEST_F(RunnerTest, UndoRunsTheInversesInReverseOrderRevertsAndDemotesLevel4) {
  allow_level_4();
  const auto id = create(definition("undo", json::array(),
                                    {set_value("first"), command("second", true), click("third")},
                                    {file_check("check")}),
                         4);
  const auto run = start(id);
  runner().wait_idle();
  ASSERT_EQ(status(run.id), "succeeded");

  auto undone = runner().undo(run.id);
  ASSERT_TRUE(undone.ok()) << undone.error().message;
  EXPECT_EQ(undone->run.status, "reverted");
  EXPECT_TRUE(undone->demoted);
  EXPECT_EQ(undone->undone, (std::vector<int>{2, 1}));
  EXPECT_EQ(undone->not_reversible, (std::vector<int>{3}));
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:first", "execute:second", "execute:third",
                                                         "execute:check", "undo:second", "undo:first"}));
  const auto records = executor_.undo_records();
  ASSERT_EQ(records.size(), 2U);
  EXPECT_EQ(records[1].previous_value, "previous of first");
  EXPECT_EQ(automations_.get(id)->level, 3);

  auto twice = runner().undo(run.id);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, ErrorCode::kConflict);
}

TEST_F(RunnerTest, AFailedInverseLeavesTheRunAsItWasAndSaysWhatWasUndone) {
  const auto id = create(definition("undo fails", json::array(), {set_value("first"), set_value("second")},
                                    json::array()),
                         3);
  executor_.fail_undo("first");
  const auto run = start(id);
  runner().wait_idle();

  auto undone = runner().undo(run.id);
  ASSERT_FALSE(undone.ok());
  EXPECT_EQ(undone.error().code, ErrorCode::kStaleRef);
  EXPECT_EQ(undone.error().details["seq"], 1);
  EXPECT_EQ(undone.error().details["undone"], json::array({2}));
  EXPECT_EQ(status(run.id), "succeeded");
}

TEST_F(RunnerTest, UndoOfASkippedOrActiveRunIsRefusedBeforeAnyInverseRuns) {
  executor_.script("pre", {outcome(StepStatus::kFailed, "no")});
  const auto id = create(definition("skipped", {file_check("pre")}, {set_value("set")}, json::array()), 3);
  const auto run = start(id);
  runner().wait_idle();
  auto skipped = runner().undo(run.id);
  ASSERT_FALSE(skipped.ok());
  EXPECT_EQ(skipped.error().code, ErrorCode::kConflict);

  const auto waiting_id = create(definition("waiting", json::array(), {press("press")}, json::array()), 3);
  const auto waiting = start(waiting_id);
  ASSERT_TRUE(waits_for_person(waiting.id));
  auto active = runner().undo(waiting.id);
  ASSERT_FALSE(active.ok());
  EXPECT_EQ(active.error().code, ErrorCode::kConflict);
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:pre"}));
  ASSERT_TRUE(runner().deny(waiting.id).ok());
}

TEST_F(RunnerTest, UndoOfARunWithNothingToTakeBackIsRefusedAndChangesNothing) {
  allow_level_4();
  const auto id = create(definition("irreversible", json::array(), {click("only")}, json::array()), 4);
  const auto run = start(id);
  runner().wait_idle();
  ASSERT_EQ(status(run.id), "succeeded");

  auto undone = runner().undo(run.id);
  ASSERT_FALSE(undone.ok());
  EXPECT_EQ(undone.error().code, ErrorCode::kConflict);
  EXPECT_EQ(undone.error().details["not_reversible"], json::array({1}));
  EXPECT_EQ(status(run.id), "succeeded");
  EXPECT_EQ(automations_.get(id)->level, 4);
}

// ---- output caps ------------------------------------------------------------------------

TEST_F(RunnerTest, OutputIsCappedAt64KiBAStepAnd128KiBARun) {
  StepOutcome loud = outcome(StepStatus::kPassed);
  loud.output = std::string(100 * 1024, 'x');
  executor_.script("one", {loud});
  executor_.script("two", {loud});
  StepOutcome small = outcome(StepStatus::kPassed);
  small.output = "tail";
  executor_.script("three", {small});
  const auto id = create(definition("loud", json::array(), {command("one", false), command("two", false),
                                                            command("three", false)},
                                    json::array()),
                         3);
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  ASSERT_EQ(d.steps.size(), 3U);
  EXPECT_EQ(d.steps[0].output.size(), 64U * 1024);
  EXPECT_TRUE(d.steps[0].output_truncated);
  EXPECT_EQ(d.steps[1].output.size(), 64U * 1024);
  EXPECT_EQ(d.steps[2].output.size(), 0U);
  EXPECT_TRUE(d.steps[2].output_truncated);
  EXPECT_EQ(d.run.output_bytes, 128 * 1024);
  EXPECT_EQ(executor_.caps(), (std::vector<std::size_t>{64 * 1024, 64 * 1024, 0}));
}

// ---- level 1 ----------------------------------------------------------------------------

TEST_F(RunnerTest, Level1IsADryRunThatExecutesNothingWithAnEffect) {
  const auto id = create(definition("suggest", {file_check("pre")},
                                    {set_value("set"), click("click"), command("cmd", true), press("press")},
                                    {file_check("check")}),
                         1);
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, "succeeded");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:pre", "dry_run:set", "dry_run:click",
                                                         "dry_run:cmd", "dry_run:press", "dry_run:check"}));
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"passed", "would_run", "would_run", "would_run",
                                                   "would_run", "would_run"}));
  EXPECT_TRUE(d.checks.empty()) << "a dry run counts no check";
  auto undo = runs_.undo_records(run.id);
  ASSERT_TRUE(undo.ok());
  EXPECT_TRUE(undo->empty());
}

TEST_F(RunnerTest, ALevel1DryRunThatCannotResolveATargetIsBlocked) {
  executor_.script("click", {outcome(StepStatus::kBlocked, "no element matches", ErrorCode::kElementNotFound)});
  const auto id = create(definition("suggest blocked", json::array(), {click("click"), set_value("set")},
                                    json::array()),
                         1);
  const auto run = start(id);
  runner().wait_idle();
  EXPECT_EQ(status(run.id), "blocked");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"dry_run:click"}));
}

TEST_F(RunnerTest, MaxLevelCapsTheRunsLevel) {
  const auto id = create(definition("capped", json::array(), {set_value("set")}, json::array()), 3);
  ASSERT_TRUE(settings_.set("max_level", 2).ok());
  const auto run = start(id);
  EXPECT_EQ(run.level, 2);
  ASSERT_TRUE(waits_for_person(run.id)) << "at level 2 a set_value asks";
  ASSERT_TRUE(runner().deny(run.id).ok());
}

TEST_F(RunnerTest, DestroyingTheRunnerStopsActiveRuns) {
  executor_.script("long", {StepOutcome{}, true});
  const auto id = create(definition("shutdown", json::array(), {command("long", false)}, json::array()), 3);
  const auto run = start(id);
  ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));
  runner_.reset();
  EXPECT_EQ(status(run.id), "stopped");
  EXPECT_EQ(runs_.get(run.id)->reason, "the daemon stopped");
}

}  // namespace
}  // namespace companyos::automation
