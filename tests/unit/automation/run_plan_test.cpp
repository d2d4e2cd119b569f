#include "automation/run_plan.h"

#include <gtest/gtest.h>

#include "automation/step_description.h"
#include "automation/step_executor.h"

namespace companyos::automation {
namespace {

Step step(StepBody body, std::optional<std::string> description = std::nullopt) {
  return Step{std::move(body), std::move(description)};
}

Step check_step() { return step(CheckStep{FileCheck{"/x", FileExpectation::kEquals, "y"}}); }
Step click_step() { return step(ClickStep{"app", std::nullopt, ElementSelector{"push button", "OK", {}}}); }
Step set_step() { return step(SetValueStep{"app", std::nullopt, ElementSelector{"text", "Name", {}}, "typed"}); }
Step press_step() { return step(PressStep{"ctrl+s", "app"}); }
Step focus_step() { return step(FocusStep{"app"}); }

TEST(PlanSteps, NumbersEveryStepInRunOrder) {
  Definition definition;
  definition.preconditions = {check_step()};
  definition.actions = {set_step(), click_step()};
  definition.post_actions = {check_step()};
  const auto plan = plan_steps(definition);
  ASSERT_EQ(plan.size(), 4U);
  EXPECT_EQ(plan[0].path, "preconditions[0]");
  EXPECT_EQ(plan[1].path, "actions[0]");
  EXPECT_EQ(plan[2].path, "actions[1]");
  EXPECT_EQ(plan[3].path, "postActions[0]");
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].seq, static_cast<int>(i) + 1);
    EXPECT_EQ(step_at_seq(definition, plan[i].seq), plan[i].step);
  }
  EXPECT_EQ(step_at_seq(definition, 0), nullptr);
  EXPECT_EQ(step_at_seq(definition, 5), nullptr);
}

struct ModeCase {
  Level level;
  Phase phase;
  Step step;
  StepMode mode;
  const char* label;
};

TEST(RunMode, LevelsDecideHowEachStepRuns) {
  const std::vector<ModeCase> cases = {
      {Level::kSuggest, Phase::kPreconditions, check_step(), StepMode::kRun, "a level-1 precondition runs"},
      {Level::kSuggest, Phase::kPreconditions, set_step(), StepMode::kDryRun, "an effect never runs at 1"},
      {Level::kSuggest, Phase::kActions, check_step(), StepMode::kDryRun, "a later check is a dry run"},
      {Level::kSuggest, Phase::kPostActions, focus_step(), StepMode::kDryRun, "so is a later focus"},
      {Level::kAssist, Phase::kActions, set_step(), StepMode::kAskFirst, "level 2 asks for effects"},
      {Level::kAssist, Phase::kActions, check_step(), StepMode::kRun, "level 2 runs checks"},
      {Level::kSupervised, Phase::kActions, click_step(), StepMode::kRun, "level 3 runs clicks"},
      {Level::kSupervised, Phase::kActions, press_step(), StepMode::kAskFirst, "press asks at 3"},
      {Level::kUnattended, Phase::kPostActions, press_step(), StepMode::kAskFirst, "press asks at 4"},
      {Level::kUnattended, Phase::kActions, set_step(), StepMode::kRun, "level 4 runs set_value"},
  };
  for (const auto& c : cases) EXPECT_EQ(run_mode(c.level, c.phase, c.step), c.mode) << c.label;
}

TEST(RecordPhase, NamesAsTheStoreAcceptsThem) {
  EXPECT_EQ(record_phase(Phase::kPreconditions), "precondition");
  EXPECT_EQ(record_phase(Phase::kActions), "action");
  EXPECT_EQ(record_phase(Phase::kPostActions), "post");
}

TEST(DescribeStep, NeverShowsTheValueToBeSet) {
  const std::string text = describe_step(set_step(), "actions[0]");
  EXPECT_EQ(text, "actions[0]: set_value on text \"Name\" in app");
  EXPECT_EQ(text.find("typed"), std::string::npos);
  EXPECT_EQ(describe_step(step(OpenLinkStep{"https://example.com/a?token=s3cret", "firefox"}), "actions[1]"),
            "actions[1]: open_link https://example.com in firefox");
  EXPECT_EQ(describe_step(step(FocusStep{"app"}, "bring it forward"), "actions[2]"), "actions[2]: bring it forward");
}

TEST(DescribeStep, NeverShowsALinksUserInfo) {
  EXPECT_EQ(describe_step(step(OpenLinkStep{"https://user:s3cret@example.com:8443/a", "firefox"}), "actions[0]"),
            "actions[0]: open_link https://example.com:8443 in firefox");
  EXPECT_EQ(describe_step(step(OpenLinkStep{"https://a@b@example.com?q", "firefox"}), "actions[0]"),
            "actions[0]: open_link https://example.com in firefox");
  EXPECT_EQ(describe_step(step(OpenLinkStep{"ftp://token@files.example.com", "app"}), "actions[0]"),
            "actions[0]: open_link ftp://files.example.com in app");
}

TEST(DescribeStep, AShownLinkIsOnlyItsSchemeAndHostHoweverItIsWritten) {
  struct Case {
    const char* url;
    const char* shown;
  };
  const Case cases[] = {
      // A later "://" is not where the scheme ends (fuzz_definition found this one).
      {"hjtps:*/user:secretpw@example.orgtps://user:secretpw@example.org/", "hjtps"},
      {"a:b://user:pw@host/", "a"},
      {"mailto:someone@example.org?subject=s3cret", "mailto"},
      {"https://example.org", "https://example.org"},
      {"HTTPS://user@Example.org:443/x", "HTTPS://Example.org:443"},
      {"web+app://host/path", "web+app://host"},
      {"https://", "https://"},
      {"example.org/path?token=s3cret", "a link"},  // no scheme at all
      {"://user:pw@host", "a link"},
      {"1http://user:pw@host", "a link"},          // a scheme starts with a letter
      {"ht tp://user:pw@host", "a link"},
      {"", "a link"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(describe_step(step(OpenLinkStep{c.url, "app"}), "s"), std::string("s: open_link ") + c.shown + " in app")
        << c.url;
  }
}

struct RefusalCase {
  ErrorCode code;
  nlohmann::json details;
  StepStatus status;
  const char* label;
};

TEST(OutcomeFromError, RefusalsBlockAndEverythingElseFails) {
  const std::vector<RefusalCase> cases = {
      {ErrorCode::kStaleRef, nlohmann::json::object(), StepStatus::kBlocked, "stale target"},
      {ErrorCode::kAmbiguousTarget, nlohmann::json::object(), StepStatus::kBlocked, "ambiguous target"},
      {ErrorCode::kWindowNotFound, nlohmann::json::object(), StepStatus::kBlocked, "no window"},
      {ErrorCode::kPolicyDenied, {{"reason", "terminal_entry"}}, StepStatus::kBlocked, "launch refused"},
      {ErrorCode::kPlatformNotSupported, nlohmann::json::object(), StepStatus::kBlocked, "wayland"},
      {ErrorCode::kTimeout, nlohmann::json::object(), StepStatus::kFailed, "timeout"},
      {ErrorCode::kAppUnresponsive, nlohmann::json::object(), StepStatus::kFailed, "hung app"},
      {ErrorCode::kInternal, nlohmann::json::object(), StepStatus::kFailed, "internal"},
      {ErrorCode::kStaleRef, {{"delivery", "delivered_unverified"}}, StepStatus::kFailed,
       "something reached the app: not a refusal"},
  };
  for (const auto& c : cases) {
    const StepOutcome outcome = outcome_from_error(make_error(c.code, "why", c.details));
    EXPECT_EQ(outcome.status, c.status) << c.label;
    EXPECT_EQ(outcome.error_code, c.code) << c.label;
    EXPECT_EQ(outcome.reason, "why") << c.label;
  }
  EXPECT_EQ(outcome_from_error(make_error(ErrorCode::kStaleRef, "x")).delivery, Delivery::kNotDelivered);
}

}  // namespace
}  // namespace companyos::automation
