#include "store/run_ledger.h"

#include <gtest/gtest.h>

#include "automation_fixture.h"

namespace companyos::store {
namespace {

constexpr std::int64_t kNow = 1'700'000'000;
constexpr std::int64_t kLedgerDay = 24 * 60 * 60;

class RunLedgerTest : public fixture::StoreTest {
 protected:
  LedgerRow row(std::int64_t run_id, std::int64_t automation_id, std::int64_t finished_at,
                RunStatus status = RunStatus::kSucceeded, bool supervised = false, std::int64_t revision = 1) {
    return {run_id, automation_id, revision, supervised ? 3 : 4, finished_at - 5, finished_at,
            status, supervised, 1, 0, std::nullopt};
  }
  std::vector<std::int64_t> evidence_ids(std::int64_t automation_id) {
    auto rows = RunLedger(*db_).gate_evidence(automation_id, kNow);
    EXPECT_TRUE(rows.ok());
    std::vector<std::int64_t> ids;
    if (rows.ok()) {
      for (const auto& r : *rows) ids.push_back(r.run_id);
    }
    return ids;
  }
};

TEST(GateWindow, ARunExactlyFourteenDaysOldIsOutside) {
  EXPECT_TRUE(in_gate_window(kNow, kNow));
  EXPECT_TRUE(in_gate_window(kNow - 14 * kLedgerDay + 1, kNow));
  EXPECT_FALSE(in_gate_window(kNow - 14 * kLedgerDay, kNow));
  EXPECT_FALSE(in_gate_window(kNow - 30 * kLedgerDay, kNow));
  EXPECT_TRUE(in_gate_window(kNow + 60, kNow)) << "a clock that jumped back still counts the run";
}

TEST(ExecutedStatuses, SucceededFailedAndRevertedOnly) {
  for (RunStatus status : {RunStatus::kSucceeded, RunStatus::kFailed, RunStatus::kReverted}) {
    EXPECT_TRUE(is_executed_status(status)) << to_string(status);
  }
  for (RunStatus status : {RunStatus::kBlocked, RunStatus::kSkipped, RunStatus::kStopped, RunStatus::kWaiting,
                           RunStatus::kRunning}) {
    EXPECT_FALSE(is_executed_status(status)) << to_string(status);
  }
}

TEST_F(RunLedgerTest, EvidenceIsTheWindowPlusSupervisedRunsOfTheCurrentRevision) {
  const std::int64_t id = create("a", 3);
  const std::int64_t other = create("b", 3);
  RunLedger ledger(*db_);
  ASSERT_TRUE(db_->transaction([&]() -> Status {
    for (const LedgerRow& r : {
             row(1, id, kNow - 1),                                // recent
             row(2, id, kNow - 14 * kLedgerDay),                        // exactly 14 days: outside
             row(3, id, kNow - 14 * kLedgerDay + 1),                    // just inside
             row(4, id, kNow - 40 * kLedgerDay, RunStatus::kSucceeded, true),     // supervised, old: kept
             row(5, id, kNow - 40 * kLedgerDay, RunStatus::kBlocked, true),       // supervised but not executed
             row(6, id, kNow - 40 * kLedgerDay, RunStatus::kFailed),              // old, unsupervised
             row(7, other, kNow - 1),                             // another automation
         }) {
      if (auto st = ledger.append(r); !st) return st;
    }
    LedgerRow undone = row(8, id, kNow - 20 * kLedgerDay);
    undone.status = RunStatus::kReverted;
    undone.reverted_at = kNow - 2 * kLedgerDay;  // the undo is recent even though the run is not
    return ledger.append(undone);
  }).ok());
  EXPECT_EQ(evidence_ids(id), (std::vector<std::int64_t>{4, 8, 3, 1}));
  EXPECT_EQ(evidence_ids(other), (std::vector<std::int64_t>{7}));
  auto missing = RunLedger(*db_).gate_evidence(999, kNow);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

TEST_F(RunLedgerTest, ANewRevisionResetsTheEvidence) {
  const std::int64_t id = create("a", 3);
  for (int i = 0; i < 3; ++i) run_once(id, RunEvent::kSucceed, 1);
  EXPECT_EQ(evidence_ids(id).size(), 3U);
  ASSERT_TRUE(automations_->update(id, {"a", fixture::definition_with_steps("a", "/bin/false"), true, 30}).ok());
  EXPECT_TRUE(evidence_ids(id).empty());
  const RunRecord fresh = run_once(id, RunEvent::kSucceed, 1);
  EXPECT_EQ(fresh.revision, 2);
  EXPECT_EQ(evidence_ids(id), (std::vector<std::int64_t>{fresh.id}));
  EXPECT_EQ(RunLedger(*db_).rows(id)->size(), 4U) << "older revisions' rows stay for the window";
}

TEST_F(RunLedgerTest, OneRowPerRunAndRevertNeedsARow) {
  const std::int64_t id = create();
  RunLedger ledger(*db_);
  ASSERT_TRUE(ledger.append(row(1, id, kNow)).ok());
  EXPECT_FALSE(ledger.append(row(1, id, kNow)).ok());
  auto missing = ledger.mark_reverted(2, kNow);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  ASSERT_TRUE(ledger.mark_reverted(1, kNow + 10).ok());
  auto rows = ledger.rows(id);
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ(rows->front().status, RunStatus::kReverted);
  EXPECT_EQ(rows->front().reverted_at, kNow + 10);
  EXPECT_EQ(rows->front().last_event_at(), kNow + 10);
}

}  // namespace
}  // namespace companyos::store
