#include "store/run_store.h"

#include <gtest/gtest.h>

#include "automation_fixture.h"
#include "store/output_cap.h"
#include "store/run_ledger.h"

namespace companyos::store {
namespace {

class RunStoreTest : public fixture::StoreTest {
 protected:
  LedgerRow ledger_row(std::int64_t run_id) {
    auto stmt = db_->prepare("SELECT automation_id FROM run_ledger WHERE run_id = ?1");
    EXPECT_TRUE(stmt.ok());
    stmt->bind(1, run_id);
    EXPECT_TRUE(*stmt->step()) << "no ledger row for run " << run_id;
    auto rows = RunLedger(*db_).rows(stmt->column_int64(0));
    EXPECT_TRUE(rows.ok());
    if (!rows.ok()) return {};
    for (const auto& row : *rows) {
      if (row.run_id == run_id) return row;
    }
    return {};
  }
  std::int64_t ledger_count() {
    auto stmt = db_->prepare("SELECT count(*) FROM run_ledger");
    EXPECT_TRUE(*stmt->step());
    return stmt->column_int64(0);
  }
};

TEST_F(RunStoreTest, StartRunsTheCurrentRevisionAtTheCurrentLevel) {
  const std::int64_t id = create("a", 3);
  ASSERT_TRUE(automations_->update(id, {"a", fixture::definition_with_steps("a", "/bin/false"), true, 30}).ok());
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->status, RunStatus::kRunning);
  EXPECT_EQ(run->revision, 2);
  EXPECT_EQ(run->level, 3);
  EXPECT_EQ(run->started_at, 1'700'000'000);
  EXPECT_FALSE(run->finished_at.has_value());
  EXPECT_EQ(runs_->start({999, RunStarter::kPerson, std::nullopt}).error().code, ErrorCode::kNotFound);
}

// A run id names one run forever: deleting an automation, its runs and its ledger rows
// does not hand their ids out again (a link, an audit row or a notification named them).
TEST_F(RunStoreTest, RunIdsAreNeverGivenTwiceEvenAfterAnAutomationIsDeleted) {
  const std::int64_t doomed = create("doomed", 3);
  auto first = runs_->start({doomed, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(runs_->finish(first->id, RunEvent::kSucceed).ok());
  auto skipped = runs_->record_skipped({doomed, RunStarter::kSchedule, std::nullopt}, "busy");
  ASSERT_TRUE(skipped.ok());
  ASSERT_TRUE(automations_->remove(doomed).ok());
  EXPECT_FALSE(runs_->get(skipped->id).ok()) << "its runs went with it";

  const std::int64_t next = create("next", 3);
  auto after = runs_->start({next, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->id, skipped->id + 1);
}

TEST_F(RunStoreTest, ASecondStartWhileOneIsActiveIsAConflict) {
  const std::int64_t a = create("a", 3);
  const std::int64_t b = create("b", 3);
  auto first = runs_->start({a, RunStarter::kSchedule, "approve the scheduled run"});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->status, RunStatus::kWaiting);
  auto second = runs_->start({a, RunStarter::kPerson, std::nullopt});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, ErrorCode::kConflict);
  EXPECT_EQ(second.error().details["run_id"], first->id);
  EXPECT_TRUE(runs_->start({b, RunStarter::kPerson, std::nullopt}).ok()) << "other automations run concurrently";
  ASSERT_TRUE(runs_->finish(first->id, RunEvent::kBlock, "not approved in time").ok());
  EXPECT_TRUE(runs_->start({a, RunStarter::kPerson, std::nullopt}).ok());
}

TEST_F(RunStoreTest, ATriggerWhileARunIsActiveIsRecordedSkipped) {
  const std::int64_t id = create("a", 4);
  auto active = runs_->start({id, RunStarter::kSchedule, std::nullopt});
  ASSERT_TRUE(active.ok());
  clock_.advance(std::chrono::seconds(60));
  auto skipped = runs_->record_skipped({id, RunStarter::kSchedule, std::nullopt}, "a run was still active");
  ASSERT_TRUE(skipped.ok()) << skipped.error().message;
  EXPECT_EQ(skipped->status, RunStatus::kSkipped);
  EXPECT_EQ(skipped->reason, "a run was still active");
  EXPECT_EQ(skipped->finished_at, 1'700'000'060);
  EXPECT_EQ(runs_->get(active->id)->status, RunStatus::kRunning);
  EXPECT_EQ(level_of(id), 4);
  auto rows = RunLedger(*db_).rows(id);
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ(rows->front().status, RunStatus::kSkipped);
  EXPECT_EQ(runs_->record_skipped({999, RunStarter::kSchedule, std::nullopt}, "x").error().code,
            ErrorCode::kNotFound);
}

TEST_F(RunStoreTest, ARunBehavesAtTheLowerOfItsLevelAndMaxLevel) {
  const std::int64_t id = create("a", 4);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt, 3});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->level, 3);
  EXPECT_TRUE(run->supervised);
  ASSERT_TRUE(runs_->finish(run->id, RunEvent::kSucceed).ok());
  for (int bad : {0, 5}) {
    auto refused = runs_->start({id, RunStarter::kPerson, std::nullopt, bad});
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgs);
  }
  EXPECT_TRUE(runs_->active()->empty());
}

struct SupervisedCase {
  int level;
  RunStarter starter;
  bool approved;
  bool supervised;
};

class Supervision : public fixture::StoreTest, public ::testing::WithParamInterface<SupervisedCase> {};

TEST_P(Supervision, OnlyAPersonAtLevelThreeSupervises) {
  const auto& c = GetParam();
  const std::int64_t id = create("a", c.level);
  std::optional<std::string> waiting;
  if (c.approved) waiting = "approve";
  auto run = runs_->start({id, c.starter, waiting});
  ASSERT_TRUE(run.ok());
  if (c.approved) {
    auto approved = runs_->approve(run->id);
    ASSERT_TRUE(approved.ok());
    EXPECT_EQ(approved->status, RunStatus::kRunning);
    EXPECT_EQ(approved->approved_at, 1'700'000'000);
    EXPECT_FALSE(approved->waiting_description.has_value());
  }
  auto finished = runs_->finish(run->id, RunEvent::kSucceed);
  ASSERT_TRUE(finished.ok());
  EXPECT_EQ(finished->run.supervised, c.supervised);
  EXPECT_EQ(RunLedger(*db_).rows(id)->front().supervised, c.supervised);
}

INSTANTIATE_TEST_SUITE_P(
    Table, Supervision,
    ::testing::Values(SupervisedCase{3, RunStarter::kPerson, false, true},
                      SupervisedCase{3, RunStarter::kSchedule, true, true},
                      SupervisedCase{3, RunStarter::kSchedule, false, false},
                      SupervisedCase{2, RunStarter::kPerson, false, false},
                      SupervisedCase{2, RunStarter::kPerson, true, false},
                      SupervisedCase{1, RunStarter::kPerson, false, false},
                      SupervisedCase{4, RunStarter::kSchedule, false, false},
                      SupervisedCase{4, RunStarter::kPerson, false, false}));

TEST_F(RunStoreTest, WaitingAndApprovalTransitions) {
  const std::int64_t id = create("a", 2);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(runs_->approve(run->id).error().code, ErrorCode::kConflict) << "running is not waiting";
  clock_.advance(std::chrono::seconds(5));
  auto waiting = runs_->wait_for_person(run->id, "set the entry to a new value");
  ASSERT_TRUE(waiting.ok());
  EXPECT_EQ(waiting->status, RunStatus::kWaiting);
  EXPECT_EQ(waiting->waiting_since, 1'700'000'005);
  EXPECT_EQ(waiting->waiting_description, "set the entry to a new value");
  EXPECT_EQ(runs_->wait_for_person(run->id, "again").error().code, ErrorCode::kConflict);
  auto active = runs_->active();
  ASSERT_TRUE(active.ok());
  ASSERT_EQ(active->size(), 1U);
  EXPECT_EQ(active->front().id, run->id);
  ASSERT_TRUE(runs_->approve(run->id).ok());
  ASSERT_TRUE(runs_->finish(run->id, RunEvent::kSucceed).ok());
  EXPECT_EQ(runs_->approve(run->id).error().code, ErrorCode::kConflict);
  EXPECT_EQ(runs_->wait_for_person(run->id, "late").error().code, ErrorCode::kConflict);
  EXPECT_TRUE(runs_->active()->empty());
  EXPECT_EQ(runs_->approve(424242).error().code, ErrorCode::kNotFound);
}

struct Ending {
  RunEvent event;
  RunStatus status;
  bool demotes;
};

class EndingAtLevelFour : public fixture::StoreTest, public ::testing::WithParamInterface<Ending> {};

TEST_P(EndingAtLevelFour, OnlyAFailureDemotesAndEveryEndWritesOneLedgerRow) {
  const std::int64_t id = create("a", 4);
  auto run = runs_->start({id, RunStarter::kSchedule, std::nullopt});
  ASSERT_TRUE(run.ok());
  clock_.advance(std::chrono::seconds(3));
  auto finished = runs_->finish(run->id, GetParam().event, "why it ended");
  ASSERT_TRUE(finished.ok()) << finished.error().message;
  EXPECT_EQ(finished->run.status, GetParam().status);
  EXPECT_EQ(finished->run.reason, "why it ended");
  EXPECT_EQ(finished->run.finished_at, 1'700'000'003);
  EXPECT_EQ(finished->demoted, GetParam().demotes);
  EXPECT_EQ(level_of(id), GetParam().demotes ? 3 : 4);
  auto rows = RunLedger(*db_).rows(id);
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ(rows->front().status, GetParam().status);
  EXPECT_EQ(rows->front().level, 4);
  EXPECT_EQ(rows->front().started_at, 1'700'000'000);
  EXPECT_EQ(rows->front().finished_at, 1'700'000'003);
  auto again = runs_->finish(run->id, RunEvent::kSucceed);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::kConflict);
  EXPECT_EQ(rows->size(), RunLedger(*db_).rows(id)->size());
}

INSTANTIATE_TEST_SUITE_P(Statuses, EndingAtLevelFour,
                         ::testing::Values(Ending{RunEvent::kSucceed, RunStatus::kSucceeded, false},
                                           Ending{RunEvent::kFail, RunStatus::kFailed, true},
                                           Ending{RunEvent::kBlock, RunStatus::kBlocked, false},
                                           Ending{RunEvent::kSkip, RunStatus::kSkipped, false},
                                           Ending{RunEvent::kStop, RunStatus::kStopped, false}));

// finish() moves a run only as the state machine allows: from running or waiting, by the
// event that ended it. Anything else is refused and leaves the run (and its ledger) as it was.
struct FinishCase {
  bool waiting;                      // the run waits for a person when the event comes
  RunEvent event;
  std::optional<RunStatus> ends_as;  // absent: refused with `refusal`
  ErrorCode refusal = ErrorCode::kConflict;
};

class FinishByEvent : public fixture::StoreTest, public ::testing::WithParamInterface<FinishCase> {};

TEST_P(FinishByEvent, OnlyWhatTheStateMachineAllows) {
  const FinishCase& c = GetParam();
  const std::int64_t id = create("a", 3);
  auto run = runs_->start({id, RunStarter::kSchedule, std::nullopt});
  ASSERT_TRUE(run.ok());
  if (c.waiting) {
    ASSERT_TRUE(runs_->wait_for_person(run->id, "approve the press").ok());
  }
  const RunStatus before = c.waiting ? RunStatus::kWaiting : RunStatus::kRunning;
  auto finished = runs_->finish(run->id, c.event, "why");
  if (c.ends_as) {
    ASSERT_TRUE(finished.ok()) << finished.error().message;
    EXPECT_EQ(finished->run.status, *c.ends_as);
    EXPECT_FALSE(finished->run.waiting_description.has_value());
    ASSERT_EQ(RunLedger(*db_).rows(id)->size(), 1U);
    EXPECT_EQ(RunLedger(*db_).rows(id)->front().status, *c.ends_as);
    return;
  }
  ASSERT_FALSE(finished.ok()) << "became " << to_string(finished->run.status);
  EXPECT_EQ(finished.error().code, c.refusal);
  EXPECT_EQ(finished.error().details["run_id"], run->id);
  EXPECT_EQ(finished.error().details["event"], to_string(c.event));
  EXPECT_EQ(runs_->get(run->id)->status, before);
  EXPECT_TRUE(RunLedger(*db_).rows(id)->empty());
}

INSTANTIATE_TEST_SUITE_P(
    Table, FinishByEvent,
    ::testing::Values(FinishCase{false, RunEvent::kSucceed, RunStatus::kSucceeded},
                      FinishCase{false, RunEvent::kDaemonRestart, RunStatus::kFailed},
                      FinishCase{false, RunEvent::kDeny, std::nullopt},
                      FinishCase{false, RunEvent::kApprovalExpired, std::nullopt},
                      FinishCase{false, RunEvent::kApprove, std::nullopt},
                      FinishCase{false, RunEvent::kAskApproval, std::nullopt, ErrorCode::kInvalidArgs},
                      FinishCase{false, RunEvent::kUndo, std::nullopt},
                      FinishCase{true, RunEvent::kDeny, RunStatus::kBlocked},
                      FinishCase{true, RunEvent::kApprovalExpired, RunStatus::kBlocked},
                      FinishCase{true, RunEvent::kStop, RunStatus::kStopped},
                      FinishCase{true, RunEvent::kFail, RunStatus::kFailed},
                      FinishCase{true, RunEvent::kBlock, RunStatus::kBlocked},
                      FinishCase{true, RunEvent::kSucceed, std::nullopt},
                      FinishCase{true, RunEvent::kSkip, std::nullopt},
                      FinishCase{true, RunEvent::kApprove, std::nullopt, ErrorCode::kInvalidArgs}));

TEST_F(RunStoreTest, AFailedCheckFailsTheRunAndDemotes) {
  const std::int64_t id = create("a", 4);
  const RunRecord run = run_once(id, RunEvent::kFail, 3, 1);
  EXPECT_EQ(level_of(id), 3);
  const LedgerRow row = ledger_row(run.id);
  EXPECT_EQ(row.status, RunStatus::kFailed);
  EXPECT_EQ(row.checks_passed, 2);
  EXPECT_EQ(row.checks_failed, 1);
}

TEST_F(RunStoreTest, DemotionIsInTheSameTransactionAsTheFailure) {
  const std::int64_t id = create("a", 4);
  auto run = runs_->start({id, RunStarter::kSchedule, std::nullopt});
  ASSERT_TRUE(run.ok());
  // A ledger row already naming this run makes the ledger write fail after the status
  // change: the whole end must roll back.
  ASSERT_TRUE(RunLedger(*db_).append({run->id, id, 1, 4, 0, 0, RunStatus::kSucceeded, false, 0, 0, std::nullopt}).ok());
  auto failed = runs_->finish(run->id, RunEvent::kFail);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(runs_->get(run->id)->status, RunStatus::kRunning);
  EXPECT_EQ(level_of(id), 4);
}

TEST_F(RunStoreTest, UndoRevertsDemotesAndMarksTheLedger) {
  const std::int64_t id = create("a", 4);
  const RunRecord run = run_once(id, RunEvent::kSucceed, 1);
  EXPECT_EQ(level_of(id), 4);
  clock_.advance(std::chrono::hours(2));
  auto reverted = runs_->revert(run.id, "undone by a person");
  ASSERT_TRUE(reverted.ok()) << reverted.error().message;
  EXPECT_TRUE(reverted->demoted);
  EXPECT_EQ(reverted->run.status, RunStatus::kReverted);
  EXPECT_EQ(reverted->run.reason, "undone by a person");
  EXPECT_EQ(level_of(id), 3);
  const LedgerRow row = ledger_row(run.id);
  EXPECT_EQ(row.status, RunStatus::kReverted);
  EXPECT_EQ(row.reverted_at, 1'700'000'000 + 7200);
  EXPECT_EQ(row.finished_at, 1'700'000'000);
  EXPECT_EQ(row.checks_passed, 1);
  auto twice = runs_->revert(run.id);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, ErrorCode::kConflict);
}

TEST_F(RunStoreTest, UndoRefusesActiveAndSkippedRuns) {
  const std::int64_t id = create("a", 3);
  const RunRecord skipped = run_once(id, RunEvent::kSkip);
  EXPECT_EQ(runs_->revert(skipped.id).error().code, ErrorCode::kConflict);
  auto active = runs_->start({id, RunStarter::kPerson, std::nullopt});
  EXPECT_EQ(runs_->revert(active->id).error().code, ErrorCode::kConflict);
  EXPECT_EQ(runs_->revert(424242).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(runs_->get(active->id)->status, RunStatus::kRunning);
}

TEST_F(RunStoreTest, StepsAreRecordedWithTheirOutcome) {
  const std::int64_t id = create("a", 3);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  StepRecord step = fixture::make_step(0, "action", "set_value");
  step.name = "set the entry";
  step.delivery = "delivered_verified";
  step.duration_ms = 42;
  step.output = "done";
  ASSERT_TRUE(runs_->record_step(run->id, step).ok());
  StepRecord check = fixture::make_step(1, "post", "check", "failed");
  check.error_code = "ELEMENT_NOT_FOUND";
  check.reason = "the entry is gone";
  check.check_passed = false;
  ASSERT_TRUE(runs_->record_step(run->id, check).ok());
  auto detail = runs_->detail(run->id);
  ASSERT_TRUE(detail.ok());
  EXPECT_EQ(detail->run.step_count, 2);
  EXPECT_EQ(detail->run.output_bytes, 4);
  ASSERT_EQ(detail->steps.size(), 2U);
  EXPECT_EQ(detail->steps[0].name, "set the entry");
  EXPECT_EQ(detail->steps[0].delivery, "delivered_verified");
  EXPECT_EQ(detail->steps[0].duration_ms, 42);
  EXPECT_EQ(detail->steps[0].output, "done");
  EXPECT_FALSE(detail->steps[0].check_passed.has_value());
  EXPECT_EQ(detail->steps[1].error_code, "ELEMENT_NOT_FOUND");
  EXPECT_EQ(detail->steps[1].check_passed, false);
  ASSERT_EQ(detail->checks.size(), 1U);
  EXPECT_FALSE(detail->checks[0].passed);
}

TEST_F(RunStoreTest, StepsAreRefusedWhenDuplicatedMisphasedOrLate) {
  const std::int64_t id = create("a", 3);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  StepRecord step = fixture::make_step(0, "action");
  ASSERT_TRUE(runs_->record_step(run->id, step).ok());
  EXPECT_EQ(runs_->record_step(run->id, step).error().code, ErrorCode::kConflict);
  StepRecord bad = fixture::make_step(1, "during");
  EXPECT_EQ(runs_->record_step(run->id, bad).error().code, ErrorCode::kInvalidArgs);
  EXPECT_EQ(runs_->record_step(424242, fixture::make_step(1, "action")).error().code,
            ErrorCode::kNotFound);
  ASSERT_TRUE(runs_->finish(run->id, RunEvent::kSucceed).ok());
  EXPECT_EQ(runs_->record_step(run->id, fixture::make_step(2, "post")).error().code,
            ErrorCode::kConflict);
  EXPECT_EQ(runs_->detail(run->id)->run.step_count, 1);
}

TEST_F(RunStoreTest, OutputIsCappedPerStepAndPerRun) {
  const std::int64_t id = create("a", 3);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  const std::string big(100 * 1024, 'x');
  const std::string sixty(60 * 1024, 'y');
  ASSERT_TRUE(runs_->record_step(run->id, fixture::make_step(0, "action", "command", "ok", big)).ok());
  ASSERT_TRUE(runs_->record_step(run->id, fixture::make_step(1, "action", "command", "ok", sixty)).ok());
  ASSERT_TRUE(runs_->record_step(run->id, fixture::make_step(2, "action", "command", "ok", sixty)).ok());
  ASSERT_TRUE(runs_->record_step(run->id, fixture::make_step(3, "action", "command", "ok", "z")).ok());
  auto detail = runs_->detail(run->id);
  ASSERT_TRUE(detail.ok());
  ASSERT_EQ(detail->steps.size(), 4U);
  EXPECT_EQ(detail->steps[0].output.size(), kStepOutputCap);
  EXPECT_TRUE(detail->steps[0].output_truncated);
  EXPECT_EQ(detail->steps[1].output.size(), sixty.size());
  EXPECT_FALSE(detail->steps[1].output_truncated);
  EXPECT_EQ(detail->steps[2].output.size(), kRunOutputCap - kStepOutputCap - sixty.size());
  EXPECT_TRUE(detail->steps[2].output_truncated);
  EXPECT_EQ(detail->steps[3].output, "");
  EXPECT_TRUE(detail->steps[3].output_truncated);
  EXPECT_EQ(static_cast<std::size_t>(detail->run.output_bytes), kRunOutputCap);
}

TEST_F(RunStoreTest, UndoRecordsComeBackInReverseOrder) {
  const std::int64_t id = create("a", 3);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(runs_->record_undo(run->id, {0, UndoKind::kCloseWindow, std::nullopt, std::nullopt, R"({"window":"w1"})"}).ok());
  ASSERT_TRUE(runs_->record_undo(run->id, {1, UndoKind::kRestoreValue, "old text", std::nullopt, std::nullopt}).ok());
  ASSERT_TRUE(runs_->record_undo(run->id, {2, UndoKind::kCommand, std::nullopt, R"({"argv":["/bin/rm","x"]})", std::nullopt}).ok());
  EXPECT_EQ(runs_->record_undo(run->id, {2, UndoKind::kCommand, std::nullopt, "{}", std::nullopt}).error().code,
            ErrorCode::kConflict);
  auto records = runs_->undo_records(run->id);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 3U);
  EXPECT_EQ((*records)[0].kind, UndoKind::kCommand);
  EXPECT_EQ((*records)[1].kind, UndoKind::kRestoreValue);
  EXPECT_EQ((*records)[1].previous_value, "old text");
  EXPECT_EQ((*records)[2].kind, UndoKind::kCloseWindow);
  EXPECT_EQ((*records)[2].window, R"({"window":"w1"})");
}

TEST_F(RunStoreTest, InterruptedRunsFailWithTheirLedgerRowAndDemotion) {
  const std::int64_t running = create("running", 4);
  const std::int64_t waiting = create("waiting", 3);
  const std::int64_t done = create("done", 4);
  const RunRecord finished = run_once(done, RunEvent::kSucceed);
  auto a = runs_->start({running, RunStarter::kSchedule, std::nullopt});
  auto b = runs_->start({waiting, RunStarter::kSchedule, "approve"});
  ASSERT_TRUE(a.ok() && b.ok());
  clock_.advance(std::chrono::minutes(5));
  auto marked = runs_->mark_interrupted_runs_failed();
  ASSERT_TRUE(marked.ok()) << marked.error().message;
  EXPECT_EQ(*marked, 2);
  for (std::int64_t run_id : {a->id, b->id}) {
    auto run = runs_->get(run_id);
    EXPECT_EQ(run->status, RunStatus::kFailed);
    EXPECT_EQ(run->reason, "daemon restarted before completion");
    EXPECT_EQ(run->finished_at, 1'700'000'300);
    EXPECT_FALSE(run->waiting_description.has_value());
    EXPECT_EQ(ledger_row(run_id).status, RunStatus::kFailed);
  }
  EXPECT_EQ(level_of(running), 3);
  EXPECT_EQ(level_of(waiting), 3);
  EXPECT_EQ(level_of(done), 4);
  EXPECT_EQ(runs_->get(finished.id)->status, RunStatus::kSucceeded);
  EXPECT_EQ(*runs_->mark_interrupted_runs_failed(), 0);
  EXPECT_EQ(ledger_count(), 3);
}

TEST_F(RunStoreTest, ListPagesNewestFirstWithAStatusFilter) {
  const std::int64_t id = create("a", 3);
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 7; ++i) {
    ids.push_back(run_once(id, i % 3 == 0 ? RunEvent::kFail : RunEvent::kSucceed).id);
  }
  auto first = runs_->list(id, {std::nullopt, 1, 3});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->total, 7);
  ASSERT_EQ(first->runs.size(), 3U);
  EXPECT_EQ(first->runs[0].id, ids[6]);
  EXPECT_EQ(first->runs[2].id, ids[4]);
  auto last = runs_->list(id, {std::nullopt, 3, 3});
  ASSERT_EQ(last->runs.size(), 1U);
  EXPECT_EQ(last->runs[0].id, ids[0]);
  EXPECT_TRUE(runs_->list(id, {std::nullopt, 4, 3})->runs.empty());
  auto failed = runs_->list(id, {RunStatus::kFailed, 1, 20});
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->total, 3);
  for (const auto& run : failed->runs) EXPECT_EQ(run.status, RunStatus::kFailed);
  EXPECT_EQ(runs_->list(id, {RunStatus::kReverted, 1, 20})->total, 0);
}

// A status that is not one cannot reach list() any more: RunStatusMachine.OnlyTheEightWords
// AreStatuses refuses "done", "" and "FAILED" where the words are read.
struct BadFilter {
  int page;
  int page_size;
};

class RunListRejects : public fixture::StoreTest, public ::testing::WithParamInterface<BadFilter> {};

TEST_P(RunListRejects, BadFiltersWithInvalidArgs) {
  const std::int64_t id = create();
  auto page = runs_->list(id, {std::nullopt, GetParam().page, GetParam().page_size});
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.error().code, ErrorCode::kInvalidArgs);
}

INSTANTIATE_TEST_SUITE_P(Table, RunListRejects,
                         ::testing::Values(BadFilter{0, 20}, BadFilter{-1, 20}, BadFilter{1, 0},
                                           BadFilter{1, 1001}));

TEST_F(RunStoreTest, ListOfAnUnknownAutomationIsNotFound) {
  EXPECT_EQ(runs_->list(77, {}).error().code, ErrorCode::kNotFound);
}

TEST(RunStatuses, TheClosedSet) {
  for (const char* status : {"running", "waiting", "succeeded", "failed", "blocked", "skipped", "stopped", "reverted"}) {
    EXPECT_TRUE(run_status_from_string(status).has_value()) << status;
  }
  for (const char* status : {"", "done", "Running", "cancelled"}) {
    EXPECT_FALSE(run_status_from_string(status).has_value()) << status;
  }
  EXPECT_TRUE(is_active(RunStatus::kRunning));
  EXPECT_TRUE(is_active(RunStatus::kWaiting));
  EXPECT_FALSE(is_active(RunStatus::kBlocked));
}

}  // namespace
}  // namespace companyos::store
