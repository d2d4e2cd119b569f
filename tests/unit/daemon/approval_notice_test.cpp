#include "daemon/services/approval_notice.h"

#include <gtest/gtest.h>

namespace companyos::daemon {
namespace {

WaitingRun waiting(std::int64_t run, const char* step) { return {run, "tidy", step, "touch it", std::nullopt}; }

TEST(ApprovalNotice, EachWaitIsPostedOnceAndClosedWhenItEnds) {
  struct Case {
    const char* what;
    std::vector<WaitingRun> waiting;
    std::map<std::string, PostedNotice> posted;
    std::set<std::string> handled;
    std::vector<std::string> post;  // keys
    std::vector<std::uint32_t> close;
  };
  const Case cases[] = {
      {"a new wait is posted", {waiting(1, "actions[0]")}, {}, {}, {"1/actions[0]"}, {}},
      {"a run-level wait has its own key", {waiting(1, "")}, {}, {}, {"1/"}, {}},
      {"posted already: nothing", {waiting(1, "actions[0]")}, {{"1/actions[0]", {7, 1}}}, {"1/actions[0]"}, {}, {}},
      {"being posted (no id yet): not twice", {waiting(1, "actions[0]")}, {}, {"1/actions[0]"}, {}, {}},
      {"dismissed by the person: not again", {waiting(1, "actions[0]")}, {}, {"1/actions[0]"}, {}, {}},
      {"the wait ended: closed", {}, {{"1/actions[0]", {7, 1}}}, {"1/actions[0]"}, {}, {7}},
      {"the run waits at its next step: the old closes, the new is posted", {waiting(1, "actions[1]")},
       {{"1/actions[0]", {7, 1}}}, {"1/actions[0]"}, {"1/actions[1]"}, {7}},
      {"two runs at once", {waiting(1, "actions[0]"), waiting(2, "")}, {{"2/", {9, 2}}}, {"2/"}, {"1/actions[0]"}, {}},
      {"nothing waits, nothing posted", {}, {}, {}, {}, {}},
  };
  for (const Case& c : cases) {
    const NoticePlan plan = plan_notices(c.waiting, c.posted, c.handled);
    std::vector<std::string> posted;
    for (const WaitingRun& run : plan.post) posted.push_back(run.key());
    EXPECT_EQ(posted, c.post) << c.what;
    EXPECT_EQ(plan.close, c.close) << c.what;
  }
}

TEST(ApprovalNotice, TheTextNamesTheAutomationTheStepAndTheRun) {
  WaitingRun run{12, "tidy <reports>", "actions[1]", "delete <b>old</b> & empty", std::nullopt};
  const NoticeText plain = notice_text(run, false);
  EXPECT_EQ(plain.summary, "companyOS: tidy <reports> waits for your approval");
  EXPECT_EQ(plain.body, "delete <b>old</b> & empty\nRun 12: companyos run approve|deny 12");
  // A server that reads markup in bodies shows the words, never runs them as markup.
  const NoticeText marked = notice_text(run, true);
  EXPECT_EQ(marked.summary, plain.summary);
  EXPECT_EQ(marked.body, "delete &lt;b&gt;old&lt;/b&gt; &amp; empty\nRun 12: companyos run approve|deny 12");
  run.description.clear();
  EXPECT_EQ(notice_text(run, false).body.rfind("the run may start\n", 0), 0u);
  run.deadline = 1'800'000'000;
  EXPECT_NE(notice_text(run, false).body.find("\nUntil "), std::string::npos);
}

TEST(ApprovalNotice, AStepsQuestionSaysHowToAnswerItAndIsItsOwnWait) {
  WaitingRun run{12, "deploy", "actions[1]", "pi asks: Deploy <now>?", std::nullopt, true};
  const NoticeText text = notice_text(run, true);
  EXPECT_EQ(text.summary, "companyOS: deploy asks you a question");
  EXPECT_EQ(text.body, "pi asks: Deploy &lt;now&gt;?\nRun 12: companyos approvals, then companyos run answer 12 …");
  run.deadline = 1'800'000'000;
  EXPECT_NE(notice_text(run, false).body.find("; then the step fails."), std::string::npos);

  // The approval of the step and its question, asked right after, are two notifications.
  WaitingRun approval = run;
  approval.question = false;
  EXPECT_NE(approval.key(), run.key());
  const auto plan = plan_notices({run}, {{approval.key(), {7, 12}}}, {approval.key()});
  ASSERT_EQ(plan.post.size(), 1u);
  EXPECT_TRUE(plan.post[0].question);
  EXPECT_EQ(plan.close, (std::vector<std::uint32_t>{7}));
}

TEST(ApprovalNotice, OnlyTheServersSignalOnOurNotificationDecides) {
  const std::map<std::string, PostedNotice> posted = {{"4/actions[0]", {7, 4}}, {"5/", {8, 5}}};
  struct Case {
    const char* what;
    std::string sender;
    std::optional<std::string> owner;
    std::uint32_t id;
    std::string action;
    std::optional<std::int64_t> run;
    Decision decision;
  };
  const Case cases[] = {
      {"the server's approve", ":1.5", ":1.5", 7, "approve", 4, Decision::kApprove},
      {"the server's deny", ":1.5", ":1.5", 8, "deny", 5, Decision::kDeny},
      {"another connection: forged", ":1.9", ":1.5", 7, "approve", std::nullopt, Decision::kApprove},
      {"no server owns the name", ":1.5", std::nullopt, 7, "approve", std::nullopt, Decision::kApprove},
      {"a notification not ours", ":1.5", ":1.5", 99, "approve", std::nullopt, Decision::kApprove},
      {"the default action (a click on the body)", ":1.5", ":1.5", 7, "default", std::nullopt, Decision::kApprove},
      {"an action that differs in case", ":1.5", ":1.5", 7, "Approve", std::nullopt, Decision::kApprove},
      {"an empty sender", "", ":1.5", 7, "approve", std::nullopt, Decision::kApprove},
  };
  for (const Case& c : cases) {
    const auto decided = decide(c.sender, c.owner, c.id, c.action, posted);
    ASSERT_EQ(decided.has_value(), c.run.has_value()) << c.what;
    if (decided) {
      EXPECT_EQ(decided->run_id, *c.run) << c.what;
      EXPECT_EQ(decided->decision, c.decision) << c.what;
    }
  }
}

}  // namespace
}  // namespace companyos::daemon
