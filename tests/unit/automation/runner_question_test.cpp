// A step's question to the person (a pi step's): the run waits as for an approval, the
// person's answer reaches the step, and a withdrawn or stopped question leaves no wait behind.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "automation/runner.h"
#include "runner_fixture.h"

namespace companyos::automation {
namespace {

using namespace std::chrono_literals;
using namespace runner_testing;
using store::RunStatus;

FakeExecutor::Script asking(Question question) {
  FakeExecutor::Script script;
  script.ask = std::move(question);
  return script;
}

const Question kDeploy{.id = "q1", .kind = QuestionKind::kSelect, .title = "Deploy where?",
                       .options = {"staging", "production"}};

TEST_F(RunnerTest, AQuestionMakesTheRunWaitAndTheAnswerReachesTheStep) {
  executor_.script("ask", asking(kDeploy));
  const auto id = create(definition("asks", json::array(), {pi_step("ask")}, {file_check("check")}), 3);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));

  const auto active = runner().active();
  ASSERT_EQ(active.size(), 1U);
  ASSERT_TRUE(active[0].question);
  EXPECT_EQ(*active[0].question, kDeploy);
  EXPECT_EQ(active[0].waiting_step, "actions[0]");
  EXPECT_EQ(active[0].waiting_description, "pi asks: Deploy where?");
  EXPECT_EQ(active[0].approval_deadline, executor_.question_deadline()) << "the step's deadline is shown";
  auto stored = runs_.get(run.id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->status, RunStatus::kWaiting);
  EXPECT_EQ(stored->waiting_description, "pi asks: Deploy where?");

  auto approve = runner().approve(run.id);
  ASSERT_FALSE(approve.ok());
  EXPECT_EQ(approve.error().code, ErrorCode::kConflict) << "a question is answered, not approved";
  EXPECT_NE(approve.error().suggestion.find("companyos run answer"), std::string::npos);
  EXPECT_EQ(runner().deny(run.id).error().code, ErrorCode::kConflict);

  auto wrong = runner().answer(run.id, Answer{.value = "moon"});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, ErrorCode::kInvalidArgs);
  EXPECT_EQ(wrong.error().details["problem"], "not one of the options");
  EXPECT_EQ(wrong.error().details["options"], (json{"staging", "production"}));
  EXPECT_EQ(runner().answer(run.id, Answer{.confirmed = true}).error().code, ErrorCode::kInvalidArgs);

  auto answered = runner().answer(run.id, Answer{.value = "staging"});
  ASSERT_TRUE(answered.ok()) << answered.error().message;
  EXPECT_EQ(answered->status, RunStatus::kRunning);
  EXPECT_EQ(runner().answer(run.id, Answer{.value = "staging"}).error().code, ErrorCode::kConflict)
      << "answered once";
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kSucceeded);
  EXPECT_TRUE(d.run.supervised);
  ASSERT_EQ(d.steps.size(), 2U);
  EXPECT_EQ(d.steps[0].type, "pi");
  EXPECT_EQ(d.steps[0].output, "staging") << "the step went on with the person's answer";
  EXPECT_EQ(executor_.calls(), (std::vector<std::string>{"execute:ask", "execute:check"}));
}

TEST_F(RunnerTest, AQuestionItsAskerGivesUpOnLeavesTheRunRunningWithoutAnApproval) {
  executor_.script("ask", asking(Question{.id = "q", .kind = QuestionKind::kConfirm, .title = "Go on?"}));
  const auto id = create(definition("gives-up", json::array(), {pi_step("ask")}, json::array()), 3);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  executor_.give_up_question();
  runner().wait_idle();

  const auto d = detail(run.id);
  EXPECT_EQ(d.run.status, RunStatus::kSucceeded);
  EXPECT_FALSE(d.run.approved_at) << "nobody answered";
  EXPECT_FALSE(d.run.waiting_description);
  EXPECT_EQ(d.steps[0].reason, "went on without an answer");
  EXPECT_EQ(runner().answer(run.id, Answer{.confirmed = true}).error().code, ErrorCode::kConflict);
}

TEST_F(RunnerTest, AStopWhileAQuestionIsAskedEndsTheRunStopped) {
  executor_.script("ask", asking(kDeploy));
  const auto id = create(definition("stopped", json::array(), {pi_step("ask")}, {file_check("check")}), 3);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  auto stopped = runner().stop(id);
  ASSERT_TRUE(stopped.ok()) << stopped.error().message;
  EXPECT_EQ(stopped->status, RunStatus::kStopped);
  runner().wait_idle();
  const auto d = detail(run.id);
  EXPECT_EQ(statuses(d), (std::vector<std::string>{"stopped"})) << "no postAction after a stop";
  EXPECT_TRUE(runner().active().empty());
}

TEST_F(RunnerTest, AnswersNeedARunThatAsks) {
  EXPECT_EQ(runner().answer(999, Answer{.value = "x"}).error().code, ErrorCode::kNotFound);
  const auto id = create(definition("asks-nothing", json::array(), {set_value("set")}, json::array()), 2);
  const auto run = start(id);
  ASSERT_TRUE(waits_for_person(run.id));
  auto answer = runner().answer(run.id, Answer{.value = "x"});
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().code, ErrorCode::kConflict) << "it waits for an approval, not an answer";
  ASSERT_TRUE(runner().deny(run.id).ok());
  runner().wait_idle();
}

}  // namespace
}  // namespace companyos::automation
