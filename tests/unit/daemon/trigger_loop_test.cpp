// The trigger loop driven by a fake clock and a fake timer, with the real Runner on a store
// file and a step executor that only records: what is armed, what fires, and what the runner
// makes of each trigger. No real time passes for a trigger.
#include "daemon/services/trigger_loop.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "automation/runner.h"
#include "automation/step_executor.h"
#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_store.h"
#include "store/settings.h"
#include "temp_dir.h"

namespace companyos::daemon {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using store::RunStatus;

constexpr std::int64_t kStart = 1'773'388'800;  // Fri 2026-03-13 08:00:00 UTC

// Read by the runner's threads while the test moves it, hence the mutex.
class TestClock final : public Clock {
 public:
  std::chrono::system_clock::time_point wall() const override {
    std::lock_guard lock(mutex_);
    return wall_;
  }
  std::chrono::steady_clock::time_point steady() const override {
    std::lock_guard lock(mutex_);
    if (std::this_thread::get_id() != owner_) ++foreign_steady_reads_;
    return steady_;
  }
  // Steady reads by threads other than the test's: a run that waits for a person reads it
  // once, on its own thread, to set its approval deadline.
  int foreign_steady_reads() const {
    std::lock_guard lock(mutex_);
    return foreign_steady_reads_;
  }
  // Time passing: both clocks move.
  void advance(std::chrono::seconds d) {
    std::lock_guard lock(mutex_);
    wall_ += d;
    steady_ += d;
  }
  // A clock set or a suspend: only the wall clock moves.
  void jump(std::chrono::seconds d) {
    std::lock_guard lock(mutex_);
    wall_ += d;
  }
  std::int64_t now() const { return unix_seconds(); }

 private:
  mutable std::mutex mutex_;
  std::chrono::system_clock::time_point wall_{std::chrono::seconds(kStart)};
  std::chrono::steady_clock::time_point steady_{};
  const std::thread::id owner_ = std::this_thread::get_id();
  mutable int foreign_steady_reads_ = 0;
};

class FakeTimer final : public WakeTimer {
 public:
  void arm(std::optional<std::int64_t> at_unix) override { armed = at_unix; }
  std::optional<std::int64_t> armed;
};

// Every step passes at once, except one described "block", which runs until stopped.
class RecordingExecutor final : public automation::StepExecutor {
 public:
  automation::StepOutcome execute(const automation::Step& step,
                                  const automation::StepContext& context) override {
    std::unique_lock lock(mutex_);
    ++executed_;
    if (step.description == "block") {
      std::stop_token stop = context.stop;
      wake_.wait(lock, stop, [] { return false; });
      automation::StepOutcome stopped;
      stopped.status = automation::StepStatus::kStopped;
      return stopped;
    }
    automation::StepOutcome passed;
    passed.status = automation::StepStatus::kPassed;
    return passed;
  }
  automation::StepOutcome dry_run(const automation::Step& step,
                                  const automation::StepContext& context) override {
    return execute(step, context);
  }
  Status undo(const automation::Step&, const store::UndoRecord&, const automation::StepContext&) override {
    return ok_status();
  }
  int executed() const {
    std::lock_guard lock(mutex_);
    return executed_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  int executed_ = 0;
};

template <typename Condition>
bool eventually(Condition condition) {
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

json definition(const std::string& name, const json& schedule, const std::string& zone = "UTC",
                const std::string& step = "write the marker") {
  return {{"name", name},
          {"schedule", schedule},
          {"timezone", zone},
          {"actions",
           {{{"type", "command"},
             {"executable", "true"},
             {"argv", json::array()},
             {"cwd", "/"},
             {"undo", {{"executable", "true"}, {"argv", json::array()}, {"cwd", "/"}}},
             {"description", step}}}}};
}

class TriggerLoopTest : public ::testing::Test {
 protected:
  TriggerLoopTest()
      : runner_db_(open()),
        db_(open()),
        automations_(db_, clock_),
        runs_(db_, clock_),
        settings_(db_, clock_),
        loop_(clock_, timer_, [this](std::vector<DueTrigger> due) {
          handed_on_.insert(handed_on_.end(), due.begin(), due.end());
          start_scheduled_runs(runner(), due);
        }) {}

  ~TriggerLoopTest() override {
    if (runner_) {
      (void)runner_->stop_all();
      runner_->wait_idle();
    }
  }

  store::Database open() {
    auto db = store::Database::open(dir_.file("companyos.db"));
    EXPECT_TRUE(db.ok());
    return std::move(db).value();
  }

  automation::Runner& runner() {
    if (!runner_) {
      automation::RunnerOptions options;
      // Only a decision, a stop or recheck_deadlines() wakes a waiting run: the test sees
      // that the loop rechecks, not that the run polled.
      options.approval_poll = std::chrono::hours{2};
      runner_ = std::make_unique<automation::Runner>(runner_db_, executor_, clock_, options);
    }
    return *runner_;
  }

  void allow_unattended() {
    ASSERT_TRUE(settings_.set("max_level", 4).ok());
    ASSERT_TRUE(settings_.set("unattended", true).ok());
  }

  store::AutomationRecord create(const json& def, int level) {
    store::AutomationFields fields;
    fields.name = def["name"];
    fields.definition = def.dump();
    auto created = automations_.create(fields);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error().message);
    if (!created.ok()) return {};
    if (level != 1) {
      EXPECT_TRUE(automations_.set_level(created->id, level).ok());
    }
    auto record = automations_.get(created->id);
    return record.ok() ? *record : store::AutomationRecord{};
  }

  // Plans what the store holds, as the daemon does at start.
  void load(bool automations_enabled = true) {
    auto all = automations_.list();
    ASSERT_TRUE(all.ok());
    loop_.reset(*all, automations_enabled);
  }

  // What the timerfd does: the wall clock reaches the armed time, the loop wakes.
  void fire_at_armed_time() {
    ASSERT_TRUE(timer_.armed.has_value());
    ASSERT_GE(*timer_.armed, clock_.now());
    clock_.advance(std::chrono::seconds(*timer_.armed - clock_.now()));
    loop_.on_timer();
  }

  std::vector<store::RunRecord> runs_of(std::int64_t id) {
    auto page = runs_.list(id, {});
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->runs : std::vector<store::RunRecord>{};
  }

  std::optional<RunStatus> status(std::int64_t run_id) {
    auto run = runs_.get(run_id);
    if (!run.ok()) return std::nullopt;
    return run->status;
  }

  bool waits(std::int64_t run_id) {
    return eventually([&] {
      for (const auto& active : runner().active()) {
        if (active.run_id == run_id && active.status == RunStatus::kWaiting) return true;
      }
      return false;
    });
  }

  testing::TempDir dir_;
  TestClock clock_;
  FakeTimer timer_;
  store::Database runner_db_;
  store::Database db_;
  store::AutomationStore automations_;
  store::RunStore runs_;
  store::Settings settings_;
  RecordingExecutor executor_;
  std::unique_ptr<automation::Runner> runner_;
  std::vector<DueTrigger> handed_on_;
  TriggerLoop loop_;
};

// ---- nextRunAt from the stored definition -------------------------------------------------

struct NextRunCase {
  const char* name;
  json definition;
  bool enabled;
  bool automations_enabled;
  std::optional<std::int64_t> expected;
};

class NextRunTest : public ::testing::TestWithParam<NextRunCase> {};

// The values automation list/get showed when they computed nextRunAt themselves.
TEST_P(NextRunTest, FollowsScheduleZoneAndSwitches) {
  const auto& c = GetParam();
  FakeClock clock(1'700'000'000);  // 2023-11-14 22:13:20 UTC
  FakeTimer timer;
  TriggerLoop loop(clock, timer, [](std::vector<DueTrigger>) {});
  store::AutomationRecord record;
  record.id = 7;
  record.enabled = c.enabled;
  record.definition = c.definition.is_null() ? "{oops" : c.definition.dump();
  loop.reset({record}, c.automations_enabled);
  EXPECT_EQ(loop.next_run_at(7), c.expected);
  EXPECT_EQ(timer.armed, c.expected);
}

const json kDaily7Utc = {{"schedule", "0 7 * * *"}, {"timezone", "UTC"}};

INSTANTIATE_TEST_SUITE_P(
    Definitions, NextRunTest,
    ::testing::Values(
        // 2023-11-15 07:00:00 UTC
        NextRunCase{"daily_utc", kDaily7Utc, true, true, 1'700'031'600},
        // 07:00 in Berlin (UTC+1 in November) is 06:00 UTC
        NextRunCase{"daily_berlin", {{"schedule", "0 7 * * *"}, {"timezone", "Europe/Berlin"}}, true,
                    true, 1'700'028'000},
        NextRunCase{"zone_defaults_to_utc", {{"schedule", "0 7 * * *"}}, true, true, 1'700'031'600},
        NextRunCase{"manual", {{"schedule", nullptr}, {"timezone", "UTC"}}, true, true, std::nullopt},
        NextRunCase{"no_schedule_field", json::object(), true, true, std::nullopt},
        NextRunCase{"disabled", kDaily7Utc, false, true, std::nullopt},
        NextRunCase{"switched_off", kDaily7Utc, true, false, std::nullopt},
        NextRunCase{"unknown_zone", {{"schedule", "0 7 * * *"}, {"timezone", "Mars/Olympus"}}, true,
                    true, std::nullopt},
        NextRunCase{"bad_expression", {{"schedule", "61 * * * *"}}, true, true, std::nullopt},
        NextRunCase{"not_an_object", json::array(), true, true, std::nullopt},
        NextRunCase{"not_json", nullptr, true, true, std::nullopt}),
    [](const ::testing::TestParamInfo<NextRunCase>& info) { return info.param.name; });

// ---- one timer, re-armed after every change -----------------------------------------------

TEST_F(TriggerLoopTest, ArmsOneTimerForTheEarliestTriggerAndReArmsAfterEveryChange) {
  auto nine = create(definition("nine", "0 9 * * *"), 1);                      // 09:00 UTC
  auto berlin = create(definition("berlin", "30 8 * * *", "Europe/Berlin"), 1);  // 07:30 UTC tomorrow
  auto manual = create(definition("manual", nullptr), 1);
  load();
  EXPECT_EQ(timer_.armed, kStart + 3600);
  EXPECT_EQ(loop_.next_run_at(berlin.id), kStart + 86400 - 1800);
  EXPECT_EQ(loop_.next_run_at(manual.id), std::nullopt);

  auto earlier = automations_.update(berlin.id, {"berlin", definition("berlin", "30 9 * * *", "Europe/Berlin").dump()});
  ASSERT_TRUE(earlier.ok());
  loop_.update(earlier->automation);  // 09:30 Berlin = 08:30 UTC today
  EXPECT_EQ(timer_.armed, kStart + 1800);

  auto disabled = automations_.set_enabled(berlin.id, false);
  ASSERT_TRUE(disabled.ok());
  loop_.update(*disabled);
  EXPECT_EQ(loop_.next_run_at(berlin.id), std::nullopt);
  EXPECT_EQ(timer_.armed, kStart + 3600);

  loop_.remove(nine.id);
  EXPECT_EQ(loop_.next_run_at(nine.id), std::nullopt);
  EXPECT_EQ(timer_.armed, std::nullopt);
  EXPECT_TRUE(handed_on_.empty());
}

// ---- what a trigger starts ------------------------------------------------------------------

TEST_F(TriggerLoopTest, Level4StartsUnattendedAtTheTriggerAndRearmsForTheNextOne) {
  allow_unattended();
  auto routine = create(definition("every five", "*/5 * * * *"), 4);
  load();
  ASSERT_EQ(timer_.armed, kStart + 300);
  fire_at_armed_time();

  ASSERT_EQ(handed_on_, (std::vector<DueTrigger>{{routine.id, kStart + 300, kStart + 600}}));
  EXPECT_EQ(timer_.armed, kStart + 600);
  runner().wait_idle();
  const auto runs = runs_of(routine.id);
  ASSERT_EQ(runs.size(), 1U);
  EXPECT_EQ(runs[0].status, RunStatus::kSucceeded);
  EXPECT_EQ(runs[0].starter, store::RunStarter::kSchedule);
  EXPECT_FALSE(runs[0].approved_at.has_value());
  EXPECT_FALSE(runs[0].waiting_since.has_value());
  EXPECT_EQ(executor_.executed(), 1);
}

struct WaitCase {
  const char* name;
  int level;
  bool unattended;
  int max_level;
};

class TriggerWaitTest : public TriggerLoopTest, public ::testing::WithParamInterface<WaitCase> {};

TEST_P(TriggerWaitTest, BelowLevel4OrWithoutUnattendedTheRunWaitsForAPerson) {
  const auto& c = GetParam();
  ASSERT_TRUE(settings_.set("max_level", c.max_level).ok());
  ASSERT_TRUE(settings_.set("unattended", c.unattended).ok());
  auto routine = create(definition("asks", "*/5 * * * *"), c.level);
  load();
  fire_at_armed_time();

  auto runs = runs_of(routine.id);
  ASSERT_EQ(runs.size(), 1U);
  EXPECT_EQ(runs[0].status, RunStatus::kWaiting);
  EXPECT_EQ(runs[0].starter, store::RunStarter::kSchedule);
  ASSERT_TRUE(waits(runs[0].id));
  EXPECT_EQ(executor_.executed(), 0) << "nothing runs before a person approves";

  ASSERT_TRUE(runner().approve(runs[0].id).ok());
  runner().wait_idle();
  EXPECT_EQ(status(runs[0].id), RunStatus::kSucceeded);
  EXPECT_EQ(executor_.executed(), 1);
}

INSTANTIATE_TEST_SUITE_P(
    Settings, TriggerWaitTest,
    ::testing::Values(WaitCase{"level_3", 3, true, 4}, WaitCase{"level_4_unattended_off", 4, false, 4},
                      WaitCase{"level_4_max_level_3", 4, true, 3}),
    [](const ::testing::TestParamInfo<WaitCase>& info) { return info.param.name; });

TEST_F(TriggerLoopTest, AnUnapprovedRunEndsBlockedAtTheNextTrigger) {
  auto routine = create(definition("asks", "*/5 * * * *"), 3);
  load();
  fire_at_armed_time();
  const auto first = runs_of(routine.id).at(0);
  ASSERT_TRUE(waits(first.id));

  fire_at_armed_time();
  const auto runs = runs_of(routine.id);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(status(first.id), RunStatus::kBlocked);
  EXPECT_EQ(runs_.get(first.id)->reason, "not approved before the next scheduled trigger");
  EXPECT_EQ(runs[0].status, RunStatus::kWaiting) << "the new trigger waits in its place";
  EXPECT_EQ(executor_.executed(), 0);
}

TEST_F(TriggerLoopTest, AWakeUpRechecksApprovalDeadlines) {
  allow_unattended();
  auto ten = create(definition("ten", "0 10 * * *"), 3);
  // Runs at 10:05 and never ends; its 11:05 trigger is only recorded skipped, which by
  // itself wakes no waiting run.
  auto slow = create(definition("slow", "5 10,11 * * *", "UTC", "block"), 4);
  load();
  const int reads = clock_.foreign_steady_reads();
  fire_at_armed_time();  // 10:00
  const auto waiting = runs_of(ten.id).at(0);
  ASSERT_TRUE(waits(waiting.id));
  // The run's thread took its deadline at 10:00, before the clock moves on.
  ASSERT_TRUE(eventually([&] { return clock_.foreign_steady_reads() > reads; }));
  fire_at_armed_time();  // 10:05
  ASSERT_TRUE(eventually([&] { return executor_.executed() == 1; }));

  // At 11:05 the approval is overdue, but the waiting run is told so only when something
  // rechecks (its own poll is two hours here): the loop's wake-up.
  fire_at_armed_time();
  ASSERT_EQ(runs_of(slow.id).at(0).status, RunStatus::kSkipped);
  ASSERT_TRUE(eventually([&] { return status(waiting.id) == RunStatus::kBlocked; }));
  EXPECT_EQ(runs_.get(waiting.id)->reason, "not approved within 1 h");
}

TEST_F(TriggerLoopTest, ATriggerWhileARunIsActiveIsRecordedSkippedNotQueued) {
  allow_unattended();
  auto routine = create(definition("slow", "*/5 * * * *", "UTC", "block"), 4);
  load();
  fire_at_armed_time();
  const auto first = runs_of(routine.id).at(0);
  ASSERT_TRUE(eventually([&] { return executor_.executed() == 1; }));

  fire_at_armed_time();
  const auto runs = runs_of(routine.id);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].status, RunStatus::kSkipped);
  EXPECT_EQ(runs[0].reason, "run " + std::to_string(first.id) + " was still active");
  EXPECT_EQ(status(first.id), RunStatus::kRunning);
  EXPECT_EQ(executor_.executed(), 1) << "nothing was queued behind the active run";
  EXPECT_EQ(timer_.armed, kStart + 900);
}

// ---- clock jumps ----------------------------------------------------------------------------

struct JumpCase {
  const char* name;
  std::chrono::seconds jump;
  bool notified_as_clock_set;     // the timerfd's ECANCELED, else the expiry after a suspend
  std::int64_t next_after_jump;  // relative to kStart
};

class TriggerJumpTest : public TriggerLoopTest, public ::testing::WithParamInterface<JumpCase> {};

TEST_P(TriggerJumpTest, TriggersSkippedOverAreNotCaughtUp) {
  const auto& c = GetParam();
  allow_unattended();
  auto routine = create(definition("every five", "*/5 * * * *"), 4);
  load();
  clock_.advance(60s);
  clock_.jump(c.jump);
  if (c.notified_as_clock_set) {
    loop_.on_clock_set();
  } else {
    loop_.on_timer();  // the armed wall time passed while the machine slept
  }
  EXPECT_TRUE(handed_on_.empty());
  EXPECT_TRUE(runs_of(routine.id).empty());
  EXPECT_EQ(timer_.armed, kStart + c.next_after_jump);

  fire_at_armed_time();  // the first trigger after the jump fires as usual
  EXPECT_EQ(runs_of(routine.id).size(), 1U);
}

INSTANTIATE_TEST_SUITE_P(
    Jumps, TriggerJumpTest,
    ::testing::Values(JumpCase{"suspended_an_hour", 3600s, false, 3600 + 300},
                      JumpCase{"resumed_after_a_day", 86400s, true, 86400 + 300},
                      JumpCase{"clock_set_forward", 1000s, true, 1200},
                      JumpCase{"clock_set_back_an_hour", -3600s, true, -3600 + 300}),
    [](const ::testing::TestParamInfo<JumpCase>& info) { return info.param.name; });

TEST_F(TriggerLoopTest, AClockStepOfASecondOverATriggerIsLatenessAndFiresOnce) {
  allow_unattended();
  auto routine = create(definition("every five", "*/5 * * * *"), 4);
  load();
  clock_.advance(299s);
  clock_.jump(2s);  // NTP steps the clock over the trigger's second: within the threshold
  loop_.on_clock_set();
  ASSERT_EQ(handed_on_, (std::vector<DueTrigger>{{routine.id, kStart + 300, kStart + 600}}));
  EXPECT_EQ(timer_.armed, kStart + 600);
}

TEST_F(TriggerLoopTest, ALateWakeUpWithoutAJumpFiresOnceNotOncePerMissedTrigger) {
  allow_unattended();
  auto routine = create(definition("every five", "*/5 * * * *"), 4);
  load();
  clock_.advance(std::chrono::minutes{17});  // a busy main loop, not a clock change
  loop_.on_timer();
  ASSERT_EQ(handed_on_, (std::vector<DueTrigger>{{routine.id, kStart + 300, kStart + 1200}}));
  runner().wait_idle();
  EXPECT_EQ(runs_of(routine.id).size(), 1U);
}

// ---- stop-all -------------------------------------------------------------------------------

TEST_F(TriggerLoopTest, StopAllClearsNextRunAtAndNothingFires) {
  allow_unattended();
  auto a = create(definition("a", "*/5 * * * *"), 4);
  auto b = create(definition("b", "0 * * * *", "Asia/Jakarta"), 3);
  load();
  ASSERT_TRUE(loop_.next_run_at(a.id).has_value());

  // settings.set automations_enabled=false: the switch first, then stop-all disables every
  // automation through the runner and the daemon plans again from the store.
  ASSERT_TRUE(settings_.set("automations_enabled", false).ok());
  loop_.set_automations_enabled(false);
  EXPECT_EQ(loop_.next_run_at(a.id), std::nullopt);
  EXPECT_EQ(loop_.next_run_at(b.id), std::nullopt);
  EXPECT_EQ(timer_.armed, std::nullopt);
  ASSERT_TRUE(runner().stop_all().ok());
  load(false);
  EXPECT_EQ(timer_.armed, std::nullopt);

  clock_.advance(std::chrono::hours{2});
  loop_.on_timer();
  EXPECT_TRUE(handed_on_.empty());

  // The switch back on plans again, but stop-all left every automation disabled.
  ASSERT_TRUE(settings_.set("automations_enabled", true).ok());
  load(true);
  EXPECT_EQ(loop_.next_run_at(a.id), std::nullopt);
  EXPECT_EQ(timer_.armed, std::nullopt);
  auto enabled = automations_.set_enabled(a.id, true);
  ASSERT_TRUE(enabled.ok());
  loop_.update(*enabled);
  EXPECT_EQ(timer_.armed, clock_.now() + 300);
  EXPECT_TRUE(runs_of(a.id).empty());
  EXPECT_TRUE(runs_of(b.id).empty());
}

}  // namespace
}  // namespace companyos::daemon
