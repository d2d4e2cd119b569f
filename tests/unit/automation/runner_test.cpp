#include "automation/runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner_fixture.h"

namespace companyos::automation {
namespace {

using namespace std::chrono_literals;
using namespace runner_testing;
using nlohmann::json;
using store::RunStatus;

// ---- every status path ------------------------------------------------------------------

TEST_F(RunnerTest, ActionsAndChecksThatPassSucceedSupervisedAtLevel3) {
  executor_.script("set", {outcome(StepStatus::kPassed), false, 250ms});
  const auto id = create(definition("ok", json::array(), {set_value("set"), click("click")}, {file_check("check")}), 3);
  const auto run = start(id);
  EXPECT_EQ(run.status, RunStatus::kRunning);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kSucceeded);
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
  EXPECT_EQ(d.run.status, RunStatus::kFailed);
  EXPECT_EQ(d.run.reason, "actions[0]: exit status 3");
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set", "execute:cleanup", "execute:check"}));
  EXPECT_EQ(d.steps[0].error_code, "INTERNAL");
  auto rows = ledger_.rows(id);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ((*rows)[0].status, RunStatus::kFailed);
}

TEST_F(RunnerTest, AFailedCheckFailsTheRunAndCountsAsAFailedCheck) {
  executor_.script("check", {outcome(StepStatus::kFailed, "the file holds something else")});
  const auto id = create(definition("check fails", json::array(), {click("click")}, {file_check("check")}), 3);
  const auto run = start(id);
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kFailed);
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
  EXPECT_EQ(d.run.status, RunStatus::kSkipped);
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
  EXPECT_EQ(d.run.status, RunStatus::kBlocked);
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
  EXPECT_EQ(stopped->status, RunStatus::kStopped);
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
  EXPECT_EQ(status(run.id), RunStatus::kWaiting);
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:pre"})) << "no effect before approval";

  auto approved = runner().approve(run.id);
  ASSERT_TRUE(approved.ok());
  EXPECT_EQ(approved->status, RunStatus::kRunning);
  ASSERT_TRUE(waits_for_person(run.id));  // the click has an effect too
  EXPECT_EQ(runner().active()[0].waiting_step, "actions[1]");
  ASSERT_TRUE(runner().approve(run.id).ok());
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kSucceeded);
  EXPECT_FALSE(d.run.supervised) << "supervised means level 3";
  EXPECT_EQ(executor_.calls(),
            (std::vector<std::string>{"execute:pre", "execute:set", "execute:click", "execute:check"}));
}

// approve() answers once the run has recorded the approval, even when the run has already
// gone on to wait for its next step by the time approve() wakes: it used to wait for an
// answer the next wait had cleared, and hung. Many runs, so the race is met often; each
// approve() must come back within a generous deadline.
TEST_F(RunnerTest, ApproveAnswersEvenWhenTheRunAlreadyWaitsAgain) {
  const auto id = create(definition("assist-many", json::array(),
                                    {set_value("a"), set_value("b"), set_value("c"), set_value("d")}, json::array()),
                         2);
  for (int round = 0; round < 25; ++round) {
    const auto run = start(id);
    for (int step = 0; step < 4; ++step) {
      ASSERT_TRUE(waits_for_person(run.id)) << "round " << round << " step " << step;
      auto answer = std::async(std::launch::async, [&] { return runner().approve(run.id); });
      ASSERT_EQ(answer.wait_for(std::chrono::seconds(20)), std::future_status::ready)
          << "approve() never answered (round " << round << ", step " << step << ")";
      const auto approved = answer.get();
      ASSERT_TRUE(approved.ok()) << approved.error().message;
      EXPECT_EQ(approved->id, run.id);
    }
    runner().wait_idle();
    EXPECT_EQ(detail(run.id).run.status, RunStatus::kSucceeded);
  }
}

TEST_F(RunnerTest, DenyEndsTheRunBlockedAndRunsNothingMore) {
  const auto id = create(definition("deny", json::array(), {set_value("set")}, {command("cleanup", true)}), 2);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));

  auto denied = runner().deny(run.id);
  ASSERT_TRUE(denied.ok());
  EXPECT_EQ(denied->status, RunStatus::kBlocked);
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
  ASSERT_TRUE(eventually([&] { return status(run.id) == RunStatus::kBlocked; }));
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
  EXPECT_EQ(status(run.id), RunStatus::kSucceeded);
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set", "execute:save"}));
}

TEST_F(RunnerTest, AScheduledRunBelowLevel4WaitsAndApprovalMakesItSupervised) {
  const auto id = create(definition("scheduled", json::array(), {set_value("set")}, json::array()), 3);
  const auto run = start(id, Trigger::kSchedule);
  EXPECT_EQ(run.status, RunStatus::kWaiting);
  EXPECT_FALSE(run.supervised);
  ASSERT_TRUE(waits_for_person(run.id));
  EXPECT_FALSE(runner().active()[0].waiting_step.has_value()) << "the whole run waits, not a step";

  auto approved = runner().approve(run.id);
  ASSERT_TRUE(approved.ok());
  EXPECT_TRUE(approved->supervised);
  runner().wait_idle();
  EXPECT_EQ(status(run.id), RunStatus::kSucceeded);
}

TEST_F(RunnerTest, TheNextTriggerEndsAnUnapprovedScheduledRunBlocked) {
  const auto id = create(definition("replaced", json::array(), {set_value("set")}, json::array()), 3);
  const auto first = start(id, Trigger::kSchedule);
  const auto second = start(id, Trigger::kSchedule);
  EXPECT_EQ(status(first.id), RunStatus::kBlocked);
  EXPECT_EQ(runs_.get(first.id)->reason, "not approved before the next scheduled trigger");
  EXPECT_EQ(second.status, RunStatus::kWaiting);
  ASSERT_TRUE(runner().deny(second.id).ok());
}

TEST_F(RunnerTest, ALevel4ScheduledRunStartsUnattended) {
  allow_level_4();
  const auto id = create(definition("unattended", json::array(), {set_value("set")}, json::array()), 4);
  const auto run = start(id, Trigger::kSchedule);
  EXPECT_EQ(run.status, RunStatus::kRunning);
  runner().wait_idle();
  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kSucceeded);
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
  EXPECT_EQ(scheduled.status, RunStatus::kSkipped) << "a trigger while a run is active is recorded skipped";

  const auto concurrent = start(other);  // another automation runs alongside
  ASSERT_TRUE(eventually([&] { return status(concurrent.id) == RunStatus::kSucceeded; }));
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
  EXPECT_EQ(status(run_a.id), RunStatus::kStopped);
  EXPECT_EQ(status(run_b.id), RunStatus::kStopped);
  EXPECT_EQ(runs_.get(run_a.id)->reason, "stopped by stop-all");
  EXPECT_FALSE(automations_.get(a)->enabled);
  EXPECT_FALSE(automations_.get(b)->enabled);
}

// What already failed (or was blocked) decides the run's status: a stop during the
// postActions is only noted, and the postActions after the stopped one do not run.
TEST_F(RunnerTest, AStopDuringThePostActionsAfterAFailureOrBlockKeepsThatStatus) {
  struct Row {
    StepOutcome action;
    RunStatus status;
    const char* action_step;
    const char* reason;
    int level_after;
  };
  const Row rows[] = {
      {outcome(StepStatus::kFailed, "exit status 3", ErrorCode::kInternal), RunStatus::kFailed, "failed",
       "actions[0]: exit status 3; during the postActions: stopped by a person", 3},
      {outcome(StepStatus::kBlocked, "no element matches", ErrorCode::kElementNotFound), RunStatus::kBlocked, "blocked",
       "actions[0]: no element matches; during the postActions: stopped by a person", 4},
  };
  allow_level_4();
  int n = 0;
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(to_string(row.status)));
    const std::string tag = std::to_string(n++);
    executor_.script("act" + tag, {row.action});
    executor_.script("long" + tag, {StepOutcome{}, true});
    const auto id = create(definition("post stop " + tag, json::array(), {set_value("act" + tag), click("never" + tag)},
                                      {command("long" + tag, false), command("cleanup" + tag, false)}),
                           4);
    const auto run = start(id);
    ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));

    auto stopped = runner().stop(id);
    ASSERT_TRUE(stopped.ok());
    EXPECT_EQ(stopped->status, row.status);
    EXPECT_EQ(stopped->reason, row.reason);
    const auto d = detail(run.id);
    EXPECT_EQ(statuses(d), (std::vector<std::string>{row.action_step, "stopped"}));
    const auto calls = executor_.calls();
    EXPECT_EQ(std::count(calls.begin(), calls.end(), "execute:cleanup" + tag), 0);
    EXPECT_EQ(std::count(calls.begin(), calls.end(), "execute:never" + tag), 0);
    auto rows_of = ledger_.rows(id);
    ASSERT_TRUE(rows_of.ok());
    ASSERT_EQ(rows_of->size(), 1U);
    EXPECT_EQ((*rows_of)[0].status, row.status) << "the gate sees the failure, not a stop";
    EXPECT_EQ(automations_.get(id)->level, row.level_after);
  }
}

TEST_F(RunnerTest, ADenialDuringThePostActionsAfterAFailureKeepsTheRunFailed) {
  executor_.script("set", {outcome(StepStatus::kFailed, "exit status 3", ErrorCode::kInternal)});
  const auto id = create(definition("post deny", json::array(), {set_value("set")},
                                    {press("save"), command("cleanup", false)}),
                         3);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));  // a press always asks

  auto denied = runner().deny(run.id);
  ASSERT_TRUE(denied.ok());
  EXPECT_EQ(denied->status, RunStatus::kFailed);
  EXPECT_EQ(denied->reason, "actions[0]: exit status 3; during the postActions: denied by a person");
  EXPECT_EQ(statuses(detail(run.id)), (std::vector<std::string>{"failed", "blocked"}));
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:set"}));
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
  ASSERT_EQ(status(run.id), RunStatus::kSucceeded);

  auto undone = runner().undo(run.id);
  ASSERT_TRUE(undone.ok()) << undone.error().message;
  EXPECT_EQ(undone->run.status, RunStatus::kReverted);
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
  EXPECT_EQ(status(run.id), RunStatus::kSucceeded);
}

TEST_F(RunnerTest, ASecondUndoRunsOnlyTheInversesNotYetTakenBack) {
  allow_level_4();
  const auto id = create(definition("undo again", json::array(),
                                    {set_value("first"), set_value("second"), set_value("third")}, json::array()),
                         4);
  executor_.fail_undo("second", 1);
  const auto run = start(id);
  runner().wait_idle();

  auto failed = runner().undo(run.id);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().details["seq"], 2);
  EXPECT_EQ(failed.error().details["undone"], json::array({3}));
  EXPECT_EQ(status(run.id), RunStatus::kSucceeded);
  EXPECT_EQ(automations_.get(id)->level, 4) << "a failed undo changes no level";

  auto undone = runner().undo(run.id);
  ASSERT_TRUE(undone.ok()) << undone.error().message;
  EXPECT_EQ(undone->run.status, RunStatus::kReverted);
  EXPECT_EQ(undone->undone, (std::vector<int>{3, 2, 1}));
  EXPECT_TRUE(undone->demoted);
  EXPECT_EQ(executor_.calls(),
            (std::vector<std::string>{"execute:first", "execute:second", "execute:third", "undo:third",
                                      "undo:second", "undo:second", "undo:first"}))
      << "the third step's inverse, taken back by the first undo, does not run again";
  auto marked = runs_.undone_seqs(run.id);
  ASSERT_TRUE(marked.ok());
  EXPECT_EQ(*marked, (std::vector<int>{3, 2, 1}));
}

TEST_F(RunnerTest, MarkingAnInverseUndoneRefusesAnUnknownStepRunOrAnActiveRun) {
  executor_.script("long", {StepOutcome{}, true});
  const auto id = create(definition("marks", json::array(), {set_value("set")}, json::array()), 3);
  const auto done = start(id);
  runner().wait_idle();
  const auto busy_id = create(definition("busy marks", json::array(), {command("long", false)}, json::array()), 3);
  const auto busy = start(busy_id);
  ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));

  struct Row {
    std::int64_t run_id;
    int seq;
    ErrorCode code;
  };
  const Row rows[] = {
      {done.id, 2, ErrorCode::kNotFound},   // the run has no such step's inverse
      {done.id, 0, ErrorCode::kNotFound},
      {done.id, -1, ErrorCode::kNotFound},
      {9999, 1, ErrorCode::kNotFound},      // no such run
      {busy.id, 1, ErrorCode::kConflict},   // still active
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::to_string(row.run_id) + "/" + std::to_string(row.seq));
    auto marked = runs_.mark_undone(row.run_id, row.seq);
    ASSERT_FALSE(marked.ok());
    EXPECT_EQ(marked.error().code, row.code);
  }
  auto none = runs_.undone_seqs(done.id);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  ASSERT_TRUE(runner().stop(busy_id).ok());
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
  ASSERT_EQ(status(run.id), RunStatus::kSucceeded);

  auto undone = runner().undo(run.id);
  ASSERT_FALSE(undone.ok());
  EXPECT_EQ(undone.error().code, ErrorCode::kConflict);
  EXPECT_EQ(undone.error().details["not_reversible"], json::array({1}));
  EXPECT_EQ(status(run.id), RunStatus::kSucceeded);
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
  EXPECT_EQ(d.run.status, RunStatus::kSucceeded);
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
  EXPECT_EQ(status(run.id), RunStatus::kBlocked);
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
  EXPECT_EQ(status(run.id), RunStatus::kStopped);
  EXPECT_EQ(runs_.get(run.id)->reason, "the daemon stopped");
}

// What a full disk does to a run, from the store's own size limit (SQLITE_FULL, as ENOSPC
// gives): it left a ghost "running" run that start called active and stop called absent.
TEST_F(RunnerTest, ARunTheFullStoreCannotRecordEndsAtOnceAndIsRecordedWhenSpaceReturns) {
  StepOutcome big = outcome(StepStatus::kPassed);
  big.output = std::string(60 * 1024, 'x');  // needs pages the full store cannot give
  executor_.script("write", {big, false, 0ms, true});
  const auto id = create(definition("full", json::array(), {command("write", false), click("after")}, json::array()), 3);
  const auto run = start(id);
  ASSERT_TRUE(eventually([&] { return executor_.blocked_in_step(); }));

  // The run's thread waits in the step, so the runner's connection is the test's for now.
  auto pages = runner_db_.prepare("PRAGMA page_count");
  ASSERT_TRUE(pages.ok() && *pages->step());
  ASSERT_TRUE(runner_db_.exec("PRAGMA max_page_count = " + std::to_string(pages->column_int64(0))).ok());
  const auto ended_at = clock_.unix_seconds();
  executor_.release();
  ASSERT_TRUE(eventually([&] { return runner().active().empty(); })) << "the run ends in the runner at once";
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:write"})) << "no step runs after it";
  EXPECT_EQ(status(run.id), RunStatus::kRunning) << "the store could not be told";

  // No ghost: start and stop both say what happened, with the store's error.
  auto again = runner().start(id, StartRequest{});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::kStorageFull) << again.error().message;
  EXPECT_EQ(again.error().details["run_id"], run.id);
  EXPECT_NE(again.error().message.find("has ended"), std::string::npos) << again.error().message;
  auto stopped = runner().stop(id);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().code, ErrorCode::kConflict);
  EXPECT_NE(stopped.error().message.find("no active run"), std::string::npos) << stopped.error().message;
  runner().recheck_deadlines();  // still full: stays in memory, nothing lost
  EXPECT_EQ(status(run.id), RunStatus::kRunning);

  clock_.advance(30s);
  ASSERT_TRUE(runner_db_.exec("PRAGMA max_page_count = 1073741823").ok());
  runner().recheck_deadlines();
  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kFailed);
  EXPECT_NE(d.run.reason.value_or("").find("the store refused to record the run"), std::string::npos)
      << d.run.reason.value_or("");
  EXPECT_EQ(d.run.finished_at, ended_at) << "recorded with the time it ended, not when space returned";
  ASSERT_EQ(d.steps.size(), 1U) << "the step it could not record is recorded with it";
  EXPECT_EQ(d.steps[0].status, "passed");
  EXPECT_EQ(d.steps[0].output.size(), 60U * 1024);
  auto ledger = ledger_.gate_evidence(id, clock_.unix_seconds());
  ASSERT_TRUE(ledger.ok());
  EXPECT_EQ(ledger->size(), 1U) << "and the gate's ledger has it";

  executor_.script("write", {outcome(StepStatus::kPassed)});
  const auto next = start(id);
  runner().wait_idle();
  EXPECT_EQ(status(next.id), RunStatus::kSucceeded);
}

// A previous daemon left a run active, and the restart could not mark it failed (the disk
// was full then too): the next start marks it, instead of answering "already has run N".
TEST_F(RunnerTest, StartMarksARunAPreviousDaemonLeftActive) {
  const auto id = create(definition("left", json::array(), {click("click")}, json::array()), 3);
  store::RunStart left;
  left.automation_id = id;
  auto orphan = runs_.start(left);
  ASSERT_TRUE(orphan.ok());
  const auto run = start(id);
  runner().wait_idle();
  EXPECT_EQ(status(run.id), RunStatus::kSucceeded);
  EXPECT_EQ(status(orphan->id), RunStatus::kFailed);
  EXPECT_EQ(runs_.get(orphan->id)->reason, std::string(store::kInterruptedReason));
}

}  // namespace
}  // namespace companyos::automation
