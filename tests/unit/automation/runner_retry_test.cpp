// Retries of a failed main action, driven by the injected clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automation/runner.h"
#include "runner_fixture.h"

namespace companyos::automation {
namespace {

using namespace std::chrono_literals;
using namespace runner_testing;
using nlohmann::json;
using store::RunStatus;

json retrying(json def, int max_retries, int interval_seconds) {
  def["maxRetries"] = max_retries;
  def["retryIntervalSeconds"] = interval_seconds;
  return def;
}

StepOutcome failed(std::string output = {}) {
  StepOutcome out = outcome(StepStatus::kFailed, "exit status 3", ErrorCode::kInternal);
  out.output = std::move(output);
  return out;
}

StepOutcome passed(std::string output = {}) {
  StepOutcome out = outcome(StepStatus::kPassed);
  out.output = std::move(output);
  return out;
}

class RunnerRetryTest : public RunnerTest {
 protected:
  std::optional<std::int64_t> retry_at(std::int64_t run_id) {
    for (const auto& active : runner().active()) {
      if (active.run_id == run_id) return active.retry_at;
    }
    return std::nullopt;
  }

  std::size_t calls_of(const std::string& call) const {
    const auto calls = executor_.calls();
    return static_cast<std::size_t>(std::count(calls.begin(), calls.end(), call));
  }

  // Waits until the run's `attempts`-th try of `step` failed and its retry is pending.
  bool retry_pending(std::int64_t run_id, const std::string& step, std::size_t attempts) {
    return eventually([&] { return calls_of("execute:" + step) == attempts && retry_at(run_id).has_value(); });
  }

  void let_time_pass(std::chrono::seconds how_long) {
    clock_.advance(how_long);
    runner().recheck_deadlines();
  }

  bool ends(std::int64_t run_id, RunStatus expected) {
    return eventually([&] { return status(run_id) == expected; });
  }
};

TEST_F(RunnerRetryTest, ASecondAttemptThatPassesSucceedsAndEarlierActionsDoNotRepeat) {
  executor_.script_each("flaky", {{failed("out one")}, {passed("out two")}});
  const auto id = create(retrying(definition("flaky", json::array(),
                                             {command("first", true), command("flaky", false), click("after")},
                                             {file_check("check")}),
                                  2, 10),
                         3);
  const auto run = start(id);
  ASSERT_TRUE(retry_pending(run.id, "flaky", 1));
  EXPECT_EQ(*retry_at(run.id), clock_.unix_seconds() + 10);
  EXPECT_EQ(status(run.id), RunStatus::kRunning) << "a pending retry keeps the run running";
  EXPECT_EQ(runner().active()[0].status, RunStatus::kRunning);

  let_time_pass(9s);
  EXPECT_FALSE(eventually([&] { return calls_of("execute:flaky") > 1; }, 100ms)) << "retried before its interval";
  let_time_pass(1s);
  ASSERT_TRUE(ends(run.id, RunStatus::kSucceeded));
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"passed", "passed", "passed", "passed"}));
  EXPECT_EQ(d.steps[1].reason, "(attempt 2 of 3)");
  EXPECT_EQ(d.steps[1].output,
            "attempt 1 of 3 failed: INTERNAL exit status 3; retrying in 10 s\nout one\n"
            "attempt 2 of 3 passed\nout two");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:first", "execute:flaky", "execute:flaky",
                                                         "execute:after", "execute:check"}));
  auto rows = ledger_.rows(id);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1U) << "the gate counts the run once";
  EXPECT_EQ((*rows)[0].status, RunStatus::kSucceeded);
}

TEST_F(RunnerRetryTest, WhenEveryAttemptFailsThePostActionsRunOnceAndTheRunFails) {
  executor_.script("flaky", {failed()});
  const auto id = create(retrying(definition("always fails", json::array(), {command("flaky", false), click("never")},
                                             {command("cleanup", false)}),
                                  2, 30),
                         3);
  const auto run = start(id);
  for (std::size_t attempt = 1; attempt <= 2; ++attempt) {
    ASSERT_TRUE(retry_pending(run.id, "flaky", attempt)) << attempt;
    let_time_pass(30s);
  }
  ASSERT_TRUE(ends(run.id, RunStatus::kFailed));
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.reason, "actions[0]: exit status 3 (attempt 3 of 3)");
  ASSERT_EQ(d.steps.size(), 2U) << "one record for the retried step";
  EXPECT_EQ(d.steps[0].status, "failed");
  EXPECT_EQ(d.steps[0].output,
            "attempt 1 of 3 failed: INTERNAL exit status 3; retrying in 30 s\n"
            "attempt 2 of 3 failed: INTERNAL exit status 3; retrying in 30 s\n"
            "attempt 3 of 3 failed: INTERNAL exit status 3\n");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:flaky", "execute:flaky", "execute:flaky",
                                                         "execute:cleanup"}));
  auto rows = ledger_.rows(id);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ((*rows)[0].status, RunStatus::kFailed);
}

// Trigger 15 s away, 10 s between attempts: the first retry fits, the second would reach it.
TEST_F(RunnerRetryTest, ARetryWhoseWaitWouldReachTheNextTriggerIsSkippedAndNoted) {
  allow_level_4();
  executor_.script("flaky", {failed()});
  const auto id = create(retrying(definition("near trigger", json::array(), {command("flaky", false)},
                                             {command("cleanup", false)}),
                                  5, 10),
                         4);
  const auto run = start(id, Trigger::kSchedule, clock_.unix_seconds() + 15);
  ASSERT_TRUE(retry_pending(run.id, "flaky", 1));
  let_time_pass(10s);
  ASSERT_TRUE(ends(run.id, RunStatus::kFailed)) << "no wait after the second attempt";
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.reason, "actions[0]: exit status 3 (attempt 2 of 6; retry skipped: the next trigger comes first)");
  EXPECT_EQ(d.steps[0].output,
            "attempt 1 of 6 failed: INTERNAL exit status 3; retrying in 10 s\n"
            "attempt 2 of 6 failed: INTERNAL exit status 3; retry skipped: the next scheduled trigger is in 5 s, "
            "before the 10 s retry wait ends\n");
  EXPECT_EQ(calls_of("execute:flaky"), 2U);
  EXPECT_EQ(calls_of("execute:cleanup"), 1U);
  EXPECT_EQ(automations_.get(id)->level, 3) << "a failed run demotes, retries or not";
}

TEST_F(RunnerRetryTest, AStopDuringTheRetryWaitEndsTheRunFailedAtOnce) {
  executor_.script("flaky", {failed("partial")});
  const auto id = create(retrying(definition("stop retry", json::array(), {command("flaky", false)},
                                             {command("cleanup", false)}),
                                  3, 3600),
                         3);
  const auto run = start(id);
  ASSERT_TRUE(retry_pending(run.id, "flaky", 1));

  auto stopped = runner().stop(id);  // no clock moves: the stop alone ends the wait
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->status, RunStatus::kFailed) << "the action had failed before the stop";
  EXPECT_EQ(stopped->reason,
            "actions[0]: exit status 3 (attempt 1 of 4; retry cancelled); before the postActions: stopped by a person");
  const auto d = detail(run.id);
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"failed"}));
  EXPECT_EQ(d.steps[0].output,
            "attempt 1 of 4 failed: INTERNAL exit status 3; retry cancelled: stopped by a person\npartial");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:flaky"})) << "no postAction after a stop";
  EXPECT_TRUE(runner().active().empty());
}

// Each row must end without the clock moving: a retry would wait for it forever.
TEST_F(RunnerRetryTest, PreconditionsPostActionsAndBlockedActionsAreNeverRetried) {
  struct Row {
    json pre, actions, post;
    const char* failing;
    StepOutcome result;
    RunStatus status;
  };
  const StepOutcome blocked = outcome(StepStatus::kBlocked, "no element matches", ErrorCode::kElementNotFound);
  const Row rows[] = {
      {{file_check("pre0")}, {command("act0", false)}, json::array(), "pre0", failed(), RunStatus::kSkipped},
      {json::array(), {command("act1", false)}, {command("post1", false), command("more1", false)}, "post1", failed(),
       RunStatus::kFailed},
      {json::array(), {click("act2"), command("next2", false)}, {command("post2", false)}, "act2", blocked, RunStatus::kBlocked},
  };
  int n = 0;
  for (const Row& row : rows) {
    SCOPED_TRACE(row.failing);
    executor_.script(row.failing, {row.result});
    const auto id = create(retrying(definition("never retried " + std::to_string(n++), row.pre, row.actions, row.post),
                                    5, 10),
                           3);
    const auto run = start(id);
    ASSERT_TRUE(ends(run.id, row.status));
    runner().wait_idle();
    EXPECT_EQ(calls_of(std::string("execute:") + row.failing), 1U);
    for (const auto& step : detail(run.id).steps) {
      EXPECT_EQ(step.reason.value_or("").find("attempt"), std::string::npos) << step.seq;
    }
  }
}

// A retry is another effect: at level 2 it asks again, and a denial leaves the run failed.
TEST_F(RunnerRetryTest, ARetryAtLevel2AsksAgainAndADenialLeavesTheRunFailed) {
  executor_.script("flaky", {failed()});
  const auto id = create(retrying(definition("assist retry", json::array(), {set_value("flaky")}, json::array()),
                                  2, 10),
                         2);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  ASSERT_TRUE(runner().approve(run.id).ok());
  ASSERT_TRUE(retry_pending(run.id, "flaky", 1));
  let_time_pass(10s);
  ASSERT_TRUE(waits_for_person(run.id));
  EXPECT_EQ(runner().active()[0].waiting_step, "actions[0]");

  auto denied = runner().deny(run.id);
  ASSERT_TRUE(denied.ok());
  EXPECT_EQ(denied->status, RunStatus::kFailed);
  EXPECT_EQ(denied->reason,
            "actions[0]: exit status 3 (attempt 1 of 3; retry not approved); before the postActions: denied by a "
            "person");
  const auto d = detail(run.id);
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"failed"}));
  EXPECT_EQ(calls_of("execute:flaky"), 1U);
}

}  // namespace
}  // namespace companyos::automation
