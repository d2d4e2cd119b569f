#include "automation/levels.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace companyos::automation {
namespace {

using L = Level;
using store::RunStatus;

struct Move {
  std::string_view what;
  Result<Level> result;
  std::optional<Level> expected;             // set: must succeed with it
  ErrorCode code = ErrorCode::kInvalidArgs;  // otherwise: this code
  std::string reason = "";                   // and this details.reason ("" = not checked)
};

void check(const Move& m) {
  SCOPED_TRACE(std::string(m.what));
  if (m.expected) {
    ASSERT_TRUE(m.result.ok()) << m.result.error().message;
    EXPECT_EQ(*m.result, *m.expected);
    return;
  }
  ASSERT_FALSE(m.result.ok()) << "became level " << to_number(*m.result);
  EXPECT_EQ(m.result.error().code, m.code) << m.result.error().message;
  if (!m.reason.empty()) {
    EXPECT_EQ(m.result.error().details.value("reason", ""), m.reason);
  }
}

TEST(AutomationLevels, NumbersOneToFourExistAndFiveIsNotBuilt) {
  const Move moves[] = {
      {"0", level_from_number(0), std::nullopt},
      {"-1", level_from_number(-1), std::nullopt},
      {"1", level_from_number(1), L::kSuggest},
      {"2", level_from_number(2), L::kAssist},
      {"3", level_from_number(3), L::kSupervised},
      {"4", level_from_number(4), L::kUnattended},
      {"5", level_from_number(5), std::nullopt, ErrorCode::kInvalidArgs, "not_built"},
      {"6", level_from_number(6), std::nullopt},
  };
  for (const Move& m : moves) check(m);
  auto five = level_from_number(5);
  ASSERT_FALSE(five.ok());
  EXPECT_EQ(five.error().message, "level 5 is not built");
  auto six = level_from_number(6);
  ASSERT_FALSE(six.ok());
  EXPECT_EQ(six.error().message, "level 6 is out of range 1-4");
}

TEST(AutomationLevels, NamesAndMeanings) {
  EXPECT_EQ(to_string(L::kSuggest), "suggest");
  EXPECT_EQ(to_string(L::kAssist), "assist");
  EXPECT_EQ(to_string(L::kSupervised), "supervised");
  EXPECT_EQ(to_string(L::kUnattended), "unattended");
  EXPECT_EQ(to_number(L::kUnattended), 4);
  for (L level : {L::kSuggest, L::kAssist, L::kSupervised, L::kUnattended}) {
    EXPECT_FALSE(meaning(level).empty());
  }
  EXPECT_NE(meaning(L::kSuggest).find("dry run"), std::string_view::npos);
}

TEST(AutomationLevels, RaiseGoesOneToTwoToThreeWithinMaxLevel) {
  const Move moves[] = {
      {"1 to 2", raise(L::kSuggest, L::kUnattended), L::kAssist},
      {"2 to 3", raise(L::kAssist, L::kUnattended), L::kSupervised},
      {"2 to 3 at max 3", raise(L::kAssist, L::kSupervised), L::kSupervised},
      {"3 needs the gate", raise(L::kSupervised, L::kUnattended), std::nullopt,
       ErrorCode::kInvalidArgs, "use_promote"},
      {"4 has nowhere to go", raise(L::kUnattended, L::kUnattended), std::nullopt,
       ErrorCode::kInvalidArgs, "not_built"},
      {"above max 1", raise(L::kSuggest, L::kSuggest), std::nullopt, ErrorCode::kPolicyDenied,
       "max_level"},
      {"above max 2", raise(L::kAssist, L::kAssist), std::nullopt, ErrorCode::kPolicyDenied,
       "max_level"},
  };
  for (const Move& m : moves) check(m);
  auto capped = raise(L::kAssist, L::kAssist);
  ASSERT_FALSE(capped.ok());
  EXPECT_EQ(capped.error().message,
            "the max_level setting is 2: level 3 (supervised) is not allowed");
  EXPECT_EQ(capped.error().details["max_level"], 2);
}

TEST(AutomationLevels, LowerGoesDownOneAndStopsAtOne) {
  const Move moves[] = {
      {"4 to 3", lower(L::kUnattended), L::kSupervised},
      {"3 to 2", lower(L::kSupervised), L::kAssist},
      {"2 to 1", lower(L::kAssist), L::kSuggest},
      {"1 is the lowest", lower(L::kSuggest), std::nullopt, ErrorCode::kInvalidArgs, "lowest"},
  };
  for (const Move& m : moves) check(m);
}

TEST(AutomationLevels, PromoteOnlyFromThreeThroughAPassedGate) {
  const nlohmann::json report = {{"conditions", {{{"number", 5}, {"passed", false}}}}};
  const Move moves[] = {
      {"3 with the gate passed", promote(L::kSupervised, true), L::kUnattended},
      {"3 with the gate failed", promote(L::kSupervised, false, report), std::nullopt,
       ErrorCode::kGateNotMet},
      {"2 even if told passed", promote(L::kAssist, true), std::nullopt, ErrorCode::kGateNotMet},
      {"1 with the gate failed", promote(L::kSuggest, false), std::nullopt, ErrorCode::kGateNotMet},
      {"4 to 5", promote(L::kUnattended, true), std::nullopt, ErrorCode::kInvalidArgs, "not_built"},
  };
  for (const Move& m : moves) check(m);
  auto refused = promote(L::kSupervised, false, report);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().details["gate"], report) << "the gate's figures travel with it";
}

TEST(AutomationLevels, EffectiveLevelIsCappedByMaxLevel) {
  struct Case {
    L stored, max, effective;
  };
  const Case cases[] = {
      {L::kUnattended, L::kSupervised, L::kSupervised},
      {L::kSupervised, L::kUnattended, L::kSupervised},
      {L::kSupervised, L::kSuggest, L::kSuggest},
      {L::kSuggest, L::kSuggest, L::kSuggest},
      {L::kUnattended, L::kUnattended, L::kUnattended},
  };
  for (const Case& c : cases) EXPECT_EQ(effective_level(c.stored, c.max), c.effective);
}

TEST(AutomationLevels, FailuresAndUndoDemoteFourButBlockedChangesNothing) {
  const RunStatus statuses[] = {RunStatus::kRunning, RunStatus::kWaiting, RunStatus::kSucceeded,
                                RunStatus::kFailed,  RunStatus::kBlocked, RunStatus::kSkipped,
                                RunStatus::kStopped, RunStatus::kReverted};
  for (RunStatus status : statuses) {
    SCOPED_TRACE(std::string(to_string(status)));
    const bool demotes = status == RunStatus::kFailed || status == RunStatus::kReverted;
    EXPECT_EQ(level_after_run(L::kUnattended, status), demotes ? L::kSupervised : L::kUnattended);
    for (L below : {L::kSuggest, L::kAssist, L::kSupervised}) {
      EXPECT_EQ(level_after_run(below, status), below) << "only level 4 is demoted";
    }
  }
  EXPECT_EQ(level_after_new_revision(L::kUnattended), L::kSupervised);
  EXPECT_EQ(level_after_new_revision(L::kSupervised), L::kSupervised);
  EXPECT_EQ(level_after_new_revision(L::kSuggest), L::kSuggest);
}

TEST(AutomationLevels, WhichStepsAskAtEachLevel) {
  const ElementSelector button{"push button", "OK", std::nullopt};
  CommandLine command;
  command.executable = "/usr/bin/true";
  command.cwd = "/";
  struct Case {
    std::string_view what;
    Step step;
    StepMode level1, level2, level3, level4;
  };
  using M = StepMode;
  const Case cases[] = {
      {"check", Step{CheckStep{FrontCheck{"gedit"}}, {}}, M::kRun, M::kRun, M::kRun, M::kRun},
      {"wait", Step{WaitStep{WindowClosedWait{"gedit", std::nullopt}}, {}}, M::kRun, M::kRun,
       M::kRun, M::kRun},
      {"focus", Step{FocusStep{"gedit"}, {}}, M::kRun, M::kRun, M::kRun, M::kRun},
      {"open_file", Step{OpenFileStep{"/srv/a", "gedit"}, {}}, M::kDryRun, M::kAskFirst, M::kRun,
       M::kRun},
      {"set_value", Step{SetValueStep{"gedit", std::nullopt, button, "x"}, {}}, M::kDryRun,
       M::kAskFirst, M::kRun, M::kRun},
      {"click", Step{ClickStep{"gedit", std::nullopt, button}, {}}, M::kDryRun, M::kAskFirst,
       M::kRun, M::kRun},
      {"command", Step{CommandStep{command, std::nullopt}, {}}, M::kDryRun, M::kAskFirst, M::kRun,
       M::kRun},
      {"press always asks", Step{PressStep{"ctrl+s", "gedit"}, {}}, M::kDryRun, M::kAskFirst,
       M::kAskFirst, M::kAskFirst},
      {"pi", Step{PiStep{"Summarise", "/srv", 900}, {}}, M::kDryRun, M::kAskFirst, M::kRun, M::kRun},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    EXPECT_EQ(step_mode(L::kSuggest, c.step), c.level1);
    EXPECT_EQ(step_mode(L::kAssist, c.step), c.level2);
    EXPECT_EQ(step_mode(L::kSupervised, c.step), c.level3);
    EXPECT_EQ(step_mode(L::kUnattended, c.step), c.level4);
    EXPECT_EQ(needs_approval(L::kAssist, c.step), c.level2 == M::kAskFirst);
  }
}

TEST(AutomationLevels, OnlyLevelFourWithEverySettingOnStartsUnattended) {
  struct Case {
    std::string_view what;
    L level;
    UnattendedSettings settings;
    bool unattended;
  };
  const Case cases[] = {
      {"all on", L::kUnattended, {true, 4, true}, true},
      {"level 3", L::kSupervised, {true, 4, true}, false},
      {"level 1", L::kSuggest, {true, 4, true}, false},
      {"unattended off", L::kUnattended, {false, 4, true}, false},
      {"max level 3", L::kUnattended, {true, 3, true}, false},
      {"master switch off", L::kUnattended, {true, 4, false}, false},
      {"defaults", L::kUnattended, {}, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    EXPECT_EQ(may_start_unattended(c.level, c.settings), c.unattended);
  }
}

TEST(AutomationLevels, SupervisedMeansAPersonAtLevelThree) {
  EXPECT_TRUE(is_supervised(L::kSupervised, true));
  EXPECT_FALSE(is_supervised(L::kSupervised, false));
  EXPECT_FALSE(is_supervised(L::kAssist, true));
  EXPECT_FALSE(is_supervised(L::kUnattended, true));
}

}  // namespace
}  // namespace companyos::automation
