#include "store/run_status.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

namespace companyos::store {
namespace {

using S = RunStatus;
using E = RunEvent;

constexpr S kStatuses[] = {S::kRunning, S::kWaiting, S::kSucceeded, S::kFailed,
                           S::kBlocked, S::kSkipped, S::kStopped,   S::kReverted};
constexpr E kEvents[] = {E::kAskApproval, E::kApprove, E::kDeny,         E::kApprovalExpired,
                         E::kSkip,        E::kSucceed, E::kFail,         E::kBlock,
                         E::kStop,        E::kUndo,    E::kDaemonRestart};

TEST(RunStatusMachine, NamesRoundTripAndMatchTheStoreSchema) {
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
TEST(RunStatusMachine, EveryTransitionLegalAndIllegal) {
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
      {{S::kWaiting, E::kFail}, S::kFailed},
      {{S::kWaiting, E::kBlock}, S::kBlocked},
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
  EXPECT_EQ(refused, 8 * 11 - 18);
}

TEST(RunStatusMachine, RefusalSaysWhereTheEventIsAllowed) {
  auto undo = transition(S::kRunning, E::kUndo);
  ASSERT_FALSE(undo.ok());
  EXPECT_EQ(undo.error().message, "a run that is running does not accept undo");
  EXPECT_EQ(undo.error().details["allowed_from"],
            nlohmann::json({"succeeded", "failed", "blocked", "stopped"}));
  auto approve = transition(S::kSucceeded, E::kApprove);
  ASSERT_FALSE(approve.ok());
  EXPECT_EQ(approve.error().details["allowed_from"], nlohmann::json({"waiting"}));
}

TEST(RunStatusMachine, WhatEachStatusMeansForTheGate) {
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
    EXPECT_EQ(is_executed_status(row.status), row.executed);
    EXPECT_EQ(is_active(row.status), !row.finished);
    EXPECT_EQ(demotes_unattended(row.status), row.demotes);
  }
}

TEST(RunStatusMachine, FinishedRunsAcceptOnlyUndo) {
  for (S from : kStatuses) {
    if (!is_finished(from)) continue;
    for (E event : kEvents) {
      if (event == E::kUndo) continue;
      EXPECT_FALSE(transition(from, event).ok()) << to_string(from) << " + " << to_string(event);
    }
  }
}

// Words that are no status: the store's own list filter and the daemon's status parameter
// both come through here, so none of them may pass for one.
TEST(RunStatusMachine, OnlyTheEightWordsAreStatuses) {
  const char* not_statuses[] = {"", "done", "Running", "FAILED", "Succeeded", "cancelled", "running ", " waiting", "stop"};
  for (const char* word : not_statuses) {
    EXPECT_FALSE(run_status_from_string(word).has_value()) << "'" << word << "'";
    auto stored = stored_run_status(word);
    ASSERT_FALSE(stored.ok()) << "'" << word << "'";
    EXPECT_EQ(stored.error().code, ErrorCode::kInternal);
    EXPECT_EQ(stored.error().details["status"], word);
  }
  for (S status : kStatuses) {
    auto stored = stored_run_status(to_string(status));
    ASSERT_TRUE(stored.ok()) << to_string(status);
    EXPECT_EQ(*stored, status);
  }
}

// A status in a reply is spelled as the store spells it, never as the enum's number.
TEST(RunStatusMachine, AStatusInJsonIsItsWord) {
  for (S status : kStatuses) {
    const nlohmann::json alone = status;
    EXPECT_EQ(alone, std::string(to_string(status)));
    const nlohmann::json object = {{"status", status}};
    EXPECT_EQ(object.dump(), R"({"status":")" + std::string(to_string(status)) + R"("})");
  }
}

TEST(RunStatusMachine, SqlListsFollowTheRules) {
  struct Row {
    bool (*holds)(S);
    const char* list;
  };
  const Row rows[] = {
      {is_active, "'running', 'waiting'"},
      {is_finished, "'succeeded', 'failed', 'blocked', 'skipped', 'stopped', 'reverted'"},
      {is_executed_status, "'succeeded', 'failed', 'reverted'"},
      {demotes_unattended, "'failed', 'reverted'"},
  };
  for (const Row& row : rows) EXPECT_EQ(sql_status_list(row.holds), row.list);
}

}  // namespace
}  // namespace companyos::store
