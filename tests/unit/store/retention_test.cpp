#include "store/retention.h"

#include <gtest/gtest.h>

#include "automation_fixture.h"
#include "store/run_ledger.h"

namespace companyos::store {
namespace {

constexpr std::int64_t kRetentionDay = 24 * 60 * 60;

class RetentionTest : public fixture::StoreTest {
 protected:
  std::int64_t count(const std::string& table) {
    auto stmt = db_->prepare("SELECT count(*) FROM " + table);
    EXPECT_TRUE(stmt.ok());
    EXPECT_TRUE(*stmt->step());
    return stmt->column_int64(0);
  }
  std::vector<std::int64_t> evidence_ids(std::int64_t automation_id) {
    std::vector<std::int64_t> ids;
    auto rows = RunLedger(*db_).gate_evidence(automation_id, clock_.unix_seconds());
    EXPECT_TRUE(rows.ok());
    if (rows.ok()) {
      for (const auto& row : *rows) ids.push_back(row.run_id);
    }
    return ids;
  }
};

TEST_F(RetentionTest, KeepsTheLatestHistoryLimitFinishedRunsAndEveryActiveOne) {
  const std::int64_t id = create("a", 3, 3);
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 6; ++i) {
    auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
    StepRecord check = fixture::make_step(0, "post", "check");
    check.check_passed = true;
    ASSERT_TRUE(runs_->record_step(run->id, check).ok());
    ASSERT_TRUE(runs_->record_undo(run->id, {0, UndoKind::kRestoreValue, "v", std::nullopt, std::nullopt}).ok());
    ASSERT_TRUE(runs_->finish(run->id, RunEvent::kSucceed).ok());
    ids.push_back(run->id);
  }
  auto active = runs_->start({id, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(active.ok());
  auto page = runs_->list(id, {std::nullopt, 1, 100});
  ASSERT_EQ(page->total, 4);
  EXPECT_EQ(page->runs[0].id, active->id);
  EXPECT_EQ(page->runs[1].id, ids[5]);
  EXPECT_EQ(page->runs[3].id, ids[3]);
  EXPECT_EQ(count("run_steps"), 3) << "details go with their run";
  EXPECT_EQ(count("checks"), 3);
  EXPECT_EQ(count("run_undo"), 3);
  EXPECT_EQ(runs_->get(ids[0]).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(RunLedger(*db_).rows(id)->size(), 6U) << "the ledger keeps what details lost";
}

TEST_F(RetentionTest, PruningNeverDropsGateEvidence) {
  const std::int64_t id = create("a", 3, 1);
  // 12 supervised runs long ago, then 30 recent ones with checks (5 blocked, 1 failed);
  // the history limit keeps the details of one run.
  for (int i = 0; i < 12; ++i) run_once(id, RunEvent::kSucceed);
  clock_.advance(std::chrono::seconds(30 * kRetentionDay));
  for (int i = 0; i < 30; ++i) {
    run_once(id, i < 5 ? RunEvent::kBlock : i == 7 ? RunEvent::kFail : RunEvent::kSucceed, 2);
  }
  const auto before = evidence_ids(id);
  EXPECT_EQ(before.size(), 42U);
  Retention retention(*db_, clock_);
  auto counts = retention.prune_all();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->ledger_rows, 0);
  EXPECT_EQ(evidence_ids(id), before);
  EXPECT_EQ(runs_->list(id, {})->total, 1);
  // Two weeks on, the recent runs leave the window: the blocked ones go, every supervised
  // executed run of this revision stays countable for condition 4.
  clock_.advance(std::chrono::seconds(15 * kRetentionDay));
  counts = retention.prune_all();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->ledger_rows, 5);
  EXPECT_EQ(evidence_ids(id).size(), 37U);
}

TEST_F(RetentionTest, LedgerRowsLiveAtLeastFourteenDays) {
  const std::int64_t id = create("a", 4, 1);
  // Level 4 runs are not supervised, so only the window keeps them.
  const RunRecord old_run = run_once(id, RunEvent::kSucceed);
  clock_.advance(std::chrono::seconds(14 * kRetentionDay));
  Retention retention(*db_, clock_);
  ASSERT_TRUE(retention.prune_all().ok());
  EXPECT_EQ(RunLedger(*db_).rows(id)->size(), 1U) << "exactly 14 days old is kept";
  clock_.advance(std::chrono::seconds(1));
  auto counts = retention.prune_all();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->ledger_rows, 1);
  EXPECT_TRUE(RunLedger(*db_).rows(id)->empty());
  EXPECT_EQ(runs_->get(old_run.id)->status, RunStatus::kSucceeded) << "history keeps the latest run's details";
}

TEST_F(RetentionTest, AnUndoKeepsTheRowForFourteenDaysFromTheUndo) {
  const std::int64_t id = create("a", 4, 5);
  const RunRecord run = run_once(id, RunEvent::kSucceed);
  clock_.advance(std::chrono::seconds(10 * kRetentionDay));
  ASSERT_TRUE(runs_->revert(run.id).ok());
  clock_.advance(std::chrono::seconds(10 * kRetentionDay));
  Retention retention(*db_, clock_);
  ASSERT_TRUE(retention.prune_all().ok());
  EXPECT_EQ(RunLedger(*db_).rows(id)->size(), 1U);
}

TEST_F(RetentionTest, UndoingARunWhoseLedgerRowAgedOutBringsTheRowBack) {
  const std::int64_t id = create("a", 4, 30);
  const RunRecord run = run_once(id, RunEvent::kSucceed, 2);
  clock_.advance(std::chrono::seconds(20 * kRetentionDay));
  Retention retention(*db_, clock_);
  ASSERT_TRUE(retention.prune_all().ok());
  ASSERT_TRUE(RunLedger(*db_).rows(id)->empty());
  auto reverted = runs_->revert(run.id);
  ASSERT_TRUE(reverted.ok()) << reverted.error().message;
  EXPECT_TRUE(reverted->demoted);
  auto rows = RunLedger(*db_).rows(id);
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ(rows->front().status, RunStatus::kReverted);
  EXPECT_EQ(rows->front().reverted_at, clock_.unix_seconds());
  EXPECT_EQ(rows->front().finished_at, 1'700'000'000);
  EXPECT_EQ(rows->front().checks_passed, 2);
  EXPECT_EQ(evidence_ids(id), (std::vector<std::int64_t>{run.id}));
}

TEST_F(RetentionTest, SupervisedRunsOfAnOldRevisionAgeOut) {
  const std::int64_t id = create("a", 3, 30);
  for (int i = 0; i < 3; ++i) run_once(id, RunEvent::kSucceed);
  ASSERT_TRUE(automations_->update(id, {"a", fixture::definition_with_steps("a", "/bin/false"), true, 30}).ok());
  run_once(id, RunEvent::kSucceed);
  clock_.advance(std::chrono::seconds(20 * kRetentionDay));
  Retention retention(*db_, clock_);
  auto counts = retention.prune_all();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->ledger_rows, 3);
  auto rows = RunLedger(*db_).rows(id);
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ(rows->front().revision, 2);
}

TEST_F(RetentionTest, RunIdsAreNeverReusedAfterPruning) {
  const std::int64_t a = create("a", 3, 1);
  std::int64_t highest = 0;
  for (int i = 0; i < 5; ++i) highest = run_once(a, RunEvent::kSucceed).id;
  // Removing the only run row left would let SQLite hand out its id again.
  ASSERT_TRUE(db_->exec("DELETE FROM runs").ok());
  const std::int64_t b = create("b", 3);
  auto next = runs_->start({b, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(next.ok());
  EXPECT_GT(next->id, highest);
}

}  // namespace
}  // namespace companyos::store
