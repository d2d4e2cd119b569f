#include "automation/gate.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_ledger.h"
#include "store/run_store.h"

namespace companyos::automation {
namespace {

using store::LedgerRow;
using store::RunStatus;

constexpr std::int64_t kNow = 1'800'000'000;
constexpr std::int64_t kDay = 24 * 60 * 60;
constexpr std::int64_t kWindow = 14 * kDay;

LedgerRow ledger_row(std::int64_t run_id, RunStatus status, std::int64_t finished_at,
                     bool supervised = true, int level = 3, std::int64_t passed = 4,
                     std::int64_t failed = 0) {
  return {run_id, 1, 1, level, finished_at - 30, finished_at, status, supervised,
          passed, failed, std::nullopt};
}

// Exactly at every threshold: 25 executed runs in the window, 10 of them supervised, every
// check passed; level 3, unattended on, max level 4, nothing irreversible.
GateInputs passing_inputs() {
  GateInputs in;
  in.level = 3;
  in.unattended_enabled = true;
  in.max_level = 4;
  in.now = kNow;
  for (int i = 0; i < 25; ++i) {
    in.ledger.push_back(ledger_row(i + 1, RunStatus::kSucceeded, kNow - (i + 1) * 3600, i < 10, i < 10 ? 3 : 2));
  }
  return in;
}

std::vector<int> failing(const GateReport& report) {
  std::vector<int> numbers;
  for (const auto& c : report.conditions) {
    if (!c.pass) numbers.push_back(c.number);
  }
  return numbers;
}

const GateCondition& condition(const GateReport& report, int number) {
  return report.conditions.at(static_cast<std::size_t>(number - 1));
}

TEST(Gate, AllEightPassAtTheirThresholds) {
  const GateReport report = evaluate_gate(passing_inputs());
  ASSERT_EQ(report.conditions.size(), 8U);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(report.conditions[static_cast<std::size_t>(i)].number, i + 1);
  EXPECT_TRUE(failing(report).empty());
  EXPECT_TRUE(report.passed);
  EXPECT_EQ(condition(report, 4).text, "4. supervised runs at level 3: 10 of 10 needed");
  EXPECT_EQ(condition(report, 5).text, "5. runs in the last 14 days: 25 of 25 needed");
  EXPECT_EQ(condition(report, 6).text,
            "6. checks passed in the last 14 days: 100 of 100 passed (100.0 %), 99 % needed");
}

struct Alone {
  const char* label;
  std::function<void(GateInputs&)> change;
  int fails;
};

class GateConditionAlone : public ::testing::TestWithParam<Alone> {};

TEST_P(GateConditionAlone, FailsOnlyItself) {
  GateInputs in = passing_inputs();
  GetParam().change(in);
  const GateReport report = evaluate_gate(in);
  EXPECT_EQ(failing(report), std::vector<int>{GetParam().fails}) << GetParam().label;
  EXPECT_FALSE(report.passed);
}

INSTANTIATE_TEST_SUITE_P(
    Table, GateConditionAlone,
    ::testing::Values(
        Alone{"level 2", [](GateInputs& in) { in.level = 2; }, 1},
        Alone{"level 1", [](GateInputs& in) { in.level = 1; }, 1},
        Alone{"unattended off", [](GateInputs& in) { in.unattended_enabled = false; }, 2},
        Alone{"max level 3", [](GateInputs& in) { in.max_level = 3; }, 2},
        Alone{"an irreversible step", [](GateInputs& in) { in.offending_effect_paths = {"actions[1]"}; }, 3},
        Alone{"nine supervised", [](GateInputs& in) { in.ledger[0].supervised = false; }, 4},
        Alone{"supervised but stopped",
              [](GateInputs& in) {
                in.ledger[0].status = RunStatus::kStopped;
                in.ledger.push_back(ledger_row(100, RunStatus::kSucceeded, kNow - 60, false, 2));
              },
              4},
        Alone{"supervised flag at level 2 is not level 3", [](GateInputs& in) { in.ledger[0].level = 2; }, 4},
        Alone{"24 runs",
              [](GateInputs& in) {
                in.ledger.pop_back();
              },
              5},
        Alone{"one of 25 blocked",
              [](GateInputs& in) { in.ledger.back().status = RunStatus::kBlocked; }, 5},
        Alone{"one of 25 skipped",
              [](GateInputs& in) { in.ledger.back().status = RunStatus::kSkipped; }, 5},
        Alone{"one of 25 a level-1 dry run",
              [](GateInputs& in) { in.ledger.back().level = 1; }, 5},
        Alone{"one of 25 finished exactly 14 days ago",
              [](GateInputs& in) { in.ledger.back().finished_at = kNow - kWindow; }, 5},
        Alone{"failed checks in a blocked run (98 %)",
              [](GateInputs& in) {
                in.ledger.push_back(ledger_row(100, RunStatus::kBlocked, kNow - 60, false, 3, 0, 2));
              },
              6},
        Alone{"no check ran",
              [](GateInputs& in) {
                for (auto& row : in.ledger) row.checks_passed = 0;
              },
              6},
        Alone{"a run reverted yesterday",
              [](GateInputs& in) {
                in.ledger.back().status = RunStatus::kReverted;
                in.ledger.back().reverted_at = kNow - kDay;
              },
              7},
        Alone{"an old run reverted 13 days ago",
              [](GateInputs& in) {
                in.ledger.push_back(ledger_row(100, RunStatus::kReverted, kNow - 30 * kDay, false, 2));
                in.ledger.back().reverted_at = kNow - 13 * kDay;
              },
              7},
        Alone{"a failed run with no checks",
              [](GateInputs& in) { in.ledger.push_back(ledger_row(100, RunStatus::kFailed, kNow - 60, false, 4, 0)); },
              8},
        Alone{"a failed dry run",
              [](GateInputs& in) { in.ledger.push_back(ledger_row(100, RunStatus::kFailed, kNow - 60, false, 1, 0)); },
              8}),
    [](const auto& info) {
      std::string name = info.param.label;
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

struct Boundary {
  const char* label;
  std::function<void(GateInputs&)> change;
  bool passes;
};

class GateBoundary : public ::testing::TestWithParam<Boundary> {};

TEST_P(GateBoundary, DecidesAtTheEdge) {
  GateInputs in = passing_inputs();
  GetParam().change(in);
  EXPECT_EQ(evaluate_gate(in).passed, GetParam().passes) << GetParam().label;
}

void checks_on_one_blocked_run(GateInputs& in, std::int64_t passed, std::int64_t failed) {
  for (auto& row : in.ledger) row.checks_passed = 0;
  in.ledger.push_back(ledger_row(100, RunStatus::kBlocked, kNow - 60, false, 3, passed, failed));
}

INSTANTIATE_TEST_SUITE_P(
    Table, GateBoundary,
    ::testing::Values(
        Boundary{"exactly 10 supervised", [](GateInputs&) {}, true},
        Boundary{"exactly 25 runs", [](GateInputs&) {}, true},
        Boundary{"exactly 99 % of checks", [](GateInputs& in) { checks_on_one_blocked_run(in, 99, 1); }, true},
        Boundary{"98.99 % of checks", [](GateInputs& in) { checks_on_one_blocked_run(in, 9899, 101); }, false},
        Boundary{"one check, passed", [](GateInputs& in) { checks_on_one_blocked_run(in, 1, 0); }, true},
        Boundary{"one check, failed", [](GateInputs& in) { checks_on_one_blocked_run(in, 0, 1); }, false},
        Boundary{"a run 14 days minus 1 s old counts",
                 [](GateInputs& in) { in.ledger.back().finished_at = kNow - kWindow + 1; }, true},
        Boundary{"a run exactly 14 days old does not",
                 [](GateInputs& in) { in.ledger.back().finished_at = kNow - kWindow; }, false},
        Boundary{"a failure exactly 14 days old no longer blocks",
                 [](GateInputs& in) { in.ledger.push_back(ledger_row(100, RunStatus::kFailed, kNow - kWindow, false, 3)); },
                 true},
        Boundary{"a failure 14 days minus 1 s old blocks",
                 [](GateInputs& in) { in.ledger.push_back(ledger_row(100, RunStatus::kFailed, kNow - kWindow + 1, false, 3)); },
                 false},
        Boundary{"an undo exactly 14 days old no longer blocks",
                 [](GateInputs& in) {
                   in.ledger.push_back(ledger_row(100, RunStatus::kReverted, kNow - 20 * kDay, false, 3));
                   in.ledger.back().reverted_at = kNow - kWindow;
                 },
                 true},
        Boundary{"failed checks exactly 14 days old no longer count",
                 [](GateInputs& in) { in.ledger.push_back(ledger_row(100, RunStatus::kBlocked, kNow - kWindow, false, 3, 0, 50)); },
                 true},
        Boundary{"old supervised runs still count for condition 4",
                 [](GateInputs& in) {
                   for (int i = 0; i < 10; ++i) {
                     in.ledger[static_cast<std::size_t>(i)].supervised = false;
                     in.ledger.push_back(ledger_row(200 + i, RunStatus::kSucceeded, kNow - 90 * kDay, true, 3));
                   }
                 },
                 true}),
    [](const auto& info) {
      std::string name = info.param.label;
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(Gate, TextsCarryTheFigures) {
  GateInputs in;
  in.level = 2;
  in.max_level = 3;
  in.now = kNow;
  in.offending_effect_paths = {"actions[0]", "postActions[2]"};
  for (int i = 0; i < 18; ++i) in.ledger.push_back(ledger_row(i + 1, RunStatus::kSucceeded, kNow - 3600, i < 7, i < 7 ? 3 : 2));
  in.ledger.push_back(ledger_row(50, RunStatus::kFailed, kNow - 60, false, 2, 1, 1));
  in.ledger.back().checks_passed = 0;
  in.ledger.push_back(ledger_row(51, RunStatus::kReverted, kNow - 60, false, 2, 0, 0));
  in.ledger.back().reverted_at = kNow - 30;
  const GateReport report = evaluate_gate(in);
  EXPECT_EQ(condition(report, 1).text, "1. raised to level 3: level 2 now");
  EXPECT_EQ(condition(report, 2).text,
            "2. unattended runs on and max level 4 in Settings: unattended off, max level 3");
  EXPECT_EQ(condition(report, 3).text,
            "3. every effect local and reversible: 2 irreversible steps (actions[0], postActions[2])");
  EXPECT_EQ(condition(report, 4).text, "4. supervised runs at level 3: 7 of 10 needed");
  EXPECT_EQ(condition(report, 5).text, "5. runs in the last 14 days: 20 of 25 needed");
  EXPECT_EQ(condition(report, 6).text,
            "6. checks passed in the last 14 days: 72 of 73 passed (98.6 %), 99 % needed");
  EXPECT_EQ(condition(report, 7).text, "7. no run reverted in the last 14 days: 1 run reverted");
  EXPECT_EQ(condition(report, 8).text, "8. no run failed in the last 14 days: 1 run failed");
  EXPECT_EQ(failing(report), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(condition(report, 5).figures["runs"], 20);
  EXPECT_EQ(condition(report, 5).figures["needed"], 25);
  EXPECT_EQ(condition(report, 3).figures["irreversible_steps"].size(), 2U);
}

TEST(Gate, NoChecksReadsAsSuch) {
  GateInputs in = passing_inputs();
  for (auto& row : in.ledger) row.checks_passed = 0;
  const GateReport report = evaluate_gate(in);
  EXPECT_FALSE(condition(report, 6).pass);
  EXPECT_EQ(condition(report, 6).text, "6. checks passed in the last 14 days: no check ran, at least one needed");
  EXPECT_TRUE(condition(report, 6).figures["percent"].is_null());
}

TEST(Gate, AnEmptyLedgerFailsTheEvidenceConditions) {
  GateInputs in = passing_inputs();
  in.ledger.clear();
  EXPECT_EQ(failing(evaluate_gate(in)), (std::vector<int>{4, 5, 6}));
}

TEST(Gate, JsonCarriesEveryCondition) {
  const nlohmann::json json = to_json(evaluate_gate(passing_inputs()));
  EXPECT_EQ(json["passed"], true);
  ASSERT_EQ(json["conditions"].size(), 8U);
  EXPECT_EQ(json["conditions"][4]["number"], 5);
  EXPECT_EQ(json["conditions"][4]["name"], "recent_runs");
  EXPECT_EQ(json["conditions"][4]["pass"], true);
  EXPECT_EQ(json["conditions"][4]["figures"]["runs"], 25);
  EXPECT_EQ(json["conditions"][4]["text"], "5. runs in the last 14 days: 25 of 25 needed");
}

// The evidence as the store records it: supervised runs with checks pass the gate, a
// failed check demotes the promoted automation and fails condition 8, new steps reset it.
class GateFromStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = store::Database::open(":memory:");
    ASSERT_TRUE(opened.ok());
    db_.emplace(std::move(opened).value());
    automations_.emplace(*db_, clock_);
    runs_.emplace(*db_, clock_);
    auto created = automations_->create({"routine", R"({"actions":[{"type":"wait"}]})", true, 5});
    ASSERT_TRUE(created.ok());
    id_ = created->id;
    ASSERT_TRUE(automations_->set_level(id_, 3).ok());
  }

  void run(store::RunEvent event, bool check_passes = true) {
    auto started = runs_->start({id_, store::RunStarter::kPerson, std::nullopt});
    ASSERT_TRUE(started.ok()) << started.error().message;
    store::StepRecord check;
    check.seq = 0;
    check.phase = "post";
    check.type = "check";
    check.status = check_passes ? "ok" : "failed";
    check.check_passed = check_passes;
    ASSERT_TRUE(runs_->record_step(started->id, check).ok());
    ASSERT_TRUE(runs_->finish(started->id, event).ok());
    clock_.advance(std::chrono::hours(6));
  }

  GateReport gate() {
    GateInputs in;
    auto automation = automations_->get(id_);
    EXPECT_TRUE(automation.ok());
    in.level = automation->level;
    in.unattended_enabled = true;
    in.max_level = 4;
    in.now = clock_.unix_seconds();
    auto evidence = store::RunLedger(*db_).gate_evidence(id_, in.now);
    EXPECT_TRUE(evidence.ok());
    if (evidence.ok()) in.ledger = std::move(evidence).value();
    return evaluate_gate(in);
  }

  FakeClock clock_{kNow};
  std::optional<store::Database> db_;
  std::optional<store::AutomationStore> automations_;
  std::optional<store::RunStore> runs_;
  std::int64_t id_ = 0;
};

TEST_F(GateFromStore, EvidencePassesThenAFailedCheckDemotesAndNewStepsReset) {
  for (int i = 0; i < 24; ++i) run(store::RunEvent::kSucceed);
  EXPECT_EQ(condition(gate(), 5).text, "5. runs in the last 14 days: 24 of 25 needed");
  run(store::RunEvent::kSucceed);
  GateReport passed = gate();
  EXPECT_TRUE(passed.passed) << to_json(passed).dump(2);
  ASSERT_TRUE(automations_->set_level(id_, 4).ok());

  run(store::RunEvent::kFail, false);
  EXPECT_EQ(automations_->get(id_)->level, 3);
  const GateReport after = gate();
  EXPECT_EQ(failing(after), (std::vector<int>{6, 8}));
  EXPECT_EQ(condition(after, 6).text,
            "6. checks passed in the last 14 days: 25 of 26 passed (96.1 %), 99 % needed");

  ASSERT_TRUE(automations_->update(id_, {"routine", R"({"actions":[{"type":"wait","x":1}]})", true, 5}).ok());
  EXPECT_EQ(failing(gate()), (std::vector<int>{4, 5, 6}));
}

TEST_F(GateFromStore, BlockedRunsChangeNothing) {
  for (int i = 0; i < 25; ++i) run(store::RunEvent::kSucceed);
  ASSERT_TRUE(automations_->set_level(id_, 4).ok());
  const nlohmann::json before = to_json(gate());
  auto started = runs_->start({id_, store::RunStarter::kSchedule, std::nullopt});
  ASSERT_TRUE(started.ok());
  auto blocked = runs_->finish(started->id, store::RunEvent::kBlock, "target is ambiguous");
  ASSERT_TRUE(blocked.ok());
  EXPECT_FALSE(blocked->demoted);
  EXPECT_EQ(automations_->get(id_)->level, 4);
  EXPECT_EQ(to_json(gate()), before);
}

TEST_F(GateFromStore, AnUndoDemotesAndFailsConditionSeven) {
  for (int i = 0; i < 25; ++i) run(store::RunEvent::kSucceed);
  ASSERT_TRUE(automations_->set_level(id_, 4).ok());
  auto last = runs_->list(id_, {});
  ASSERT_TRUE(last.ok());
  auto reverted = runs_->revert(last->runs.front().id);
  ASSERT_TRUE(reverted.ok());
  EXPECT_TRUE(reverted->demoted);
  EXPECT_EQ(automations_->get(id_)->level, 3);
  EXPECT_EQ(failing(gate()), (std::vector<int>{7}));
  clock_.advance(std::chrono::seconds(kWindow));
  // Two weeks on: the undo has aged out, and so have the runs — but not the supervised ones.
  const GateReport later = gate();
  EXPECT_EQ(failing(later), (std::vector<int>{5, 6}));
  EXPECT_EQ(condition(later, 4).text, "4. supervised runs at level 3: 25 of 10 needed");
}

}  // namespace
}  // namespace companyos::automation
