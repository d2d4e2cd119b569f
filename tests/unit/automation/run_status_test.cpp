#include "automation/run_status.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "store/run_ledger.h"

namespace companyos::automation {
namespace {

using S = RunStatus;
using E = RunEvent;

constexpr S kStatuses[] = {S::kRunning, S::kWaiting, S::kSucceeded, S::kFailed,
                           S::kBlocked, S::kSkipped, S::kStopped,   S::kReverted};
constexpr E kEvents[] = {E::kAskApproval, E::kApprove, E::kDeny,         E::kApprovalExpired,
                         E::kSkip,        E::kSucceed, E::kFail,         E::kBlock,
                         E::kStop,        E::kUndo,    E::kDaemonRestart};

TEST(AutomationRunStatus, NamesRoundTripAndMatchTheStoreSchema) {
  const char* names[] = {"running", "waiting", "succeeded", "failed",
                         "blocked", "skipped", "stopped",   "reverted"};
  for (std::size_t i = 0; i < std::size(kStatuses); ++i) {
    EXPECT_EQ(to_string(kStatuses[i]), names[i]);
    EXPECT_EQ(run_status_from_string(names[i]), kStatuses[i]);
  }
  EXPECT_FALSE(run_status_from_string("done").has_value());
  EXPECT_FALSE(run_status_from_string("Running").has_value());
  EXPECT_EQ(to_string(E::kApprovalExpired), "approval_expired");
  EXPECT_EQ(to_string(E::kDaemonRestart), "daemon_restart");
}

// Every (status, event) pair: the legal ones lead where this table says, all others are
// refused with CONFLICT and change nothing.
TEST(AutomationRunStatus, EveryTransitionLegalAndIllegal) {
  const std::map<std::pair<S, E>, S> legal = {
      {{S::kRunning, E::kAskApproval}, S::kWaiting},
      {{S::kRunning, E::kSkip}, S::kSkipped},
      {{S::kRunning, E::kSucceed}, S::kSucceeded},
      {{S::kRunning, E::kFail}, S::kFailed},
      {{S::kRunning, E::kBlock}, S::kBlocked},
      {{S::kRunning, E::kStop}, S::kStopped},
      {{S::kRunning, E::kDaemonRestart}, S::kFailed},
      {{S::kWaiting, E::kApprove}, S::kRunning},
      {{S::kWaiting, E::kDeny}, S::kBlocked},
      {{S::kWaiting, E::kApprovalExpired}, S::kBlocked},
      {{S::kWaiting, E::kStop}, S::kStopped},
      {{S::kWaiting, E::kDaemonRestart}, S::kFailed},
      {{S::kSucceeded, E::kUndo}, S::kReverted},
      {{S::kFailed, E::kUndo}, S::kReverted},
      {{S::kBlocked, E::kUndo}, S::kReverted},
      {{S::kStopped, E::kUndo}, S::kReverted},
  };
  EXPECT_EQ(run_transitions().size(), legal.size());
  int refused = 0;
  for (S from : kStatuses) {
    for (E event : kEvents) {
      SCOPED_TRACE(std::string(to_string(from)) + " + " + std::string(to_string(event)));
      auto to = transition(from, event);
      const auto found = legal.find({from, event});
      if (found != legal.end()) {
        ASSERT_TRUE(to.ok()) << to.error().message;
        EXPECT_EQ(*to, found->second);
        continue;
      }
      ++refused;
      ASSERT_FALSE(to.ok()) << "became " << to_string(*to);
      EXPECT_EQ(to.error().code, ErrorCode::kConflict);
      EXPECT_EQ(to.error().details["status"], to_string(from));
      EXPECT_EQ(to.error().details["event"], to_string(event));
    }
  }
  EXPECT_EQ(refused, 8 * 11 - 16);
}

TEST(AutomationRunStatus, RefusalSaysWhereTheEventIsAllowed) {
  auto undo = transition(S::kRunning, E::kUndo);
  ASSERT_FALSE(undo.ok());
  EXPECT_EQ(undo.error().message, "a run that is running does not accept undo");
  EXPECT_EQ(undo.error().details["allowed_from"],
            nlohmann::json({"succeeded", "failed", "blocked", "stopped"}));
  auto approve = transition(S::kSucceeded, E::kApprove);
  ASSERT_FALSE(approve.ok());
  EXPECT_EQ(approve.error().details["allowed_from"], nlohmann::json({"waiting"}));
}

TEST(AutomationRunStatus, WhatEachStatusMeansForTheGate) {
  struct Row {
    S status;
    bool starts, finished, executed, demotes;
  };
  const Row rows[] = {
      {S::kRunning, true, false, false, false},  {S::kWaiting, true, false, false, false},
      {S::kSucceeded, false, true, true, false}, {S::kFailed, false, true, true, true},
      {S::kBlocked, false, true, false, false},  {S::kSkipped, true, true, false, false},
      {S::kStopped, false, true, false, false},  {S::kReverted, false, true, true, true},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(to_string(row.status)));
    EXPECT_EQ(can_start_as(row.status), row.starts);
    EXPECT_EQ(is_finished(row.status), row.finished);
    EXPECT_EQ(store::is_executed_status(to_string(row.status)), row.executed);
    EXPECT_EQ(demotes_unattended(row.status), row.demotes);
  }
}

TEST(AutomationRunStatus, FinishedRunsAcceptOnlyUndo) {
  for (S from : kStatuses) {
    if (!is_finished(from)) continue;
    for (E event : kEvents) {
      if (event == E::kUndo) continue;
      EXPECT_FALSE(transition(from, event).ok()) << to_string(from) << " + " << to_string(event);
    }
  }
}

}  // namespace
}  // namespace companyos::automation
