#include "daemon/wire/a11y_replies.h"

#include <gtest/gtest.h>

#include <string>

#include "snapshot_nodes.h"

namespace companyos::wire {
namespace {

using nlohmann::json;
using namespace a11y;

using a11y::testing::editor_nodes;
using a11y::testing::snapshot_of;
using a11y::testing::view_options;

TEST(Replies, SnapshotJsonIsCompleteAndFollowsTheView) {
  auto nodes = editor_nodes();
  nodes[5].value_withheld = true;  // pretend the text is a password field
  nodes[4].bounds = Bounds{1, 2, 3, 4};
  const auto snapshot = snapshot_of(nodes);
  const auto json = snapshot_to_json(snapshot, make_view(snapshot.nodes, view_options(false, false, 1)));
  EXPECT_EQ(json["snapshot"], "abc");
  EXPECT_EQ(json["window"]["id"], "w0123456789ab");
  EXPECT_EQ(json["node_count"], 8);
  const auto& root = json["tree"];
  EXPECT_EQ(root["ref"], "@abc:e1");
  EXPECT_EQ(root["role"], "frame");
  EXPECT_EQ(root["states"], nlohmann::json::array({"active"}));
  EXPECT_TRUE(root["bounds"].is_null());
  const auto& form = root["children"][0]["children"][0];
  EXPECT_EQ(form["ref"], "@abc:e3");
  EXPECT_EQ(form["hidden_descendants"], 5);
  EXPECT_TRUE(form["children"].empty());

  const auto full = snapshot_to_json(snapshot, make_view(snapshot.nodes, {}));
  const auto& save = full["tree"]["children"][0]["children"][0]["children"][1];
  EXPECT_EQ(save["name"], "Save");
  EXPECT_EQ(save["actions"], nlohmann::json::array({"click"}));
  EXPECT_EQ(save["bounds"], (nlohmann::json{{"x", 1}, {"y", 2}, {"width", 3}, {"height", 4}}));
  EXPECT_EQ(save["twin"], false);
  const auto& secret = full["tree"]["children"][0]["children"][0]["children"][2];
  EXPECT_TRUE(secret["value"].is_null());
  EXPECT_EQ(secret["value_withheld"], true);
}

TEST(ActionReply, CarriesDeliveryAndRetry) {
  ActionReply reply;
  reply.kind = ActionKind::kSetValue;
  reply.delivery = Delivery::kDeliveredVerified;
  reply.route = "EditableText.SetTextContents";
  reply.target = {"@s:e4", "fx", 42, "w0123456789ab", "FX", "text", "Text", 4};
  reply.verification = verify_text("hello", std::string("hello"), false);
  json shown = action_reply_to_json(reply);
  EXPECT_FALSE(shown.contains("answered"));
  EXPECT_EQ(shown["method"], "set-value");
  EXPECT_EQ(shown["delivery"], "delivered_verified");
  EXPECT_EQ(shown["retry"], "unsafe");
  EXPECT_EQ(shown["target"]["ref"], "@s:e4");
  EXPECT_EQ(shown["target"]["window"]["id"], "w0123456789ab");
  EXPECT_EQ(shown["verification"]["matched"], true);
  EXPECT_FALSE(shown.contains("already"));
  EXPECT_FALSE(shown.contains("expectation"));
  EXPECT_FALSE(shown.contains("first_route"));

  // A cell's number its Value set showed otherwise, entered again through the input line.
  ActionReply again = reply;
  again.route = "input_line";
  again.first_route = "Value.CurrentValue";
  shown = action_reply_to_json(again);
  EXPECT_EQ(shown["route"], "input_line");
  EXPECT_EQ(shown["first_route"], "Value.CurrentValue");

  ActionReply already;
  already.kind = ActionKind::kExpand;
  already.delivery = Delivery::kNotDelivered;
  already.already = true;
  shown = action_reply_to_json(already);
  EXPECT_EQ(shown["delivery"], "not_delivered");
  EXPECT_EQ(shown["retry"], "safe");
  EXPECT_EQ(shown["already"], true);
  EXPECT_TRUE(shown["verification"].is_null());
  EXPECT_FALSE(shown["target"].contains("ref"));

  // A click the app has not answered yet (busy in a modal dialog, say) was still sent.
  ActionReply busy;
  busy.kind = ActionKind::kClick;
  busy.delivery = Delivery::kDeliveredUnverified;
  busy.answered = false;
  shown = action_reply_to_json(busy);
  EXPECT_EQ(shown["answered"], false);
  EXPECT_EQ(shown["retry"], "unsafe");
}

TEST(Replies, VerificationShowsEachReading) {
  const auto shown = [](Reading expected, Reading read) {
    return verification_to_json(Verification{true, "x", std::move(expected), std::move(read)});
  };
  const json text = shown(std::string("a \"b\""), std::string("a \"b\""));
  EXPECT_EQ(text, (json{{"check", "x"}, {"matched", true}, {"expected", "a \"b\""}, {"read", "a \"b\""}}));
  EXPECT_TRUE(shown(std::string("t"), Reading())["read"].is_null());
  EXPECT_EQ(shown(Characters{9}, Characters{5})["expected"], (json{{"characters", 9}}));
  EXPECT_EQ(shown(std::int64_t{6}, std::int64_t{5})["read"], 5);
  EXPECT_EQ(shown(42.0, 41.5)["read"], 41.5);
  EXPECT_EQ(shown(42.0, 41.5)["expected"].dump(), "42.0");
  EXPECT_EQ(shown(StatePresence{"checked", true}, Reading())["expected"],
            (json{{"state", "checked"}, {"present", true}}));
  EXPECT_EQ(shown(ChildSelection{1, true}, ChildSelection{1, false})["read"], (json{{"index", 1}, {"selected", false}}));
}

TEST(Replies, ExpectationShowsWhatTheLastPollSaw) {
  Expectation expectation;
  expectation.kind = ExpectationKind::kText;
  expectation.text = "Done";
  ExpectationResult result;
  result.reason = "timeout";
  EXPECT_FALSE(expectation_to_json(expectation, result).contains("observed"));
  result.observed = ExpectationObservation{3, std::nullopt};
  EXPECT_EQ(expectation_to_json(expectation, result)["observed"], (json{{"matches", 3}}));
  result.observed = ExpectationObservation{std::nullopt, ErrorCode::kStaleRef};
  EXPECT_EQ(expectation_to_json(expectation, result)["observed"], (json{{"error", "STALE_REF"}}));
}


// Each condition's evidence keeps the reply shape it had when it was JSON inside a11y.
TEST(Replies, WaitEvidenceHasEachConditionsShape) {
  const WaitWindow draft{"w1", "Draft", "editor", ":1.5", 42};
  const WaitWindow untitled{"w2", std::nullopt, "", ":1.6", std::nullopt};
  struct Case {
    const char* what;
    WaitEvidence evidence;
    const char* expected;
  };
  const Case cases[] = {
      {"a window appeared", WindowAppearedEvidence{draft, "event"},
       R"({"seen_open_by":"event","window":{"app":"editor","bus_name":":1.5","id":"w1","pid":42,"title":"Draft"}})"},
      {"an unnamed window closed", WindowClosedEvidence{untitled, "start", "app_exit", 120},
       R"({"gone_at_ms":120,"gone_by":"app_exit","seen_open_by":"start","window":{"app":"","bus_name":":1.6","id":"w2","pid":null,"title":null}})"},
      {"a text appeared", TextAppearedEvidence{"w1", "Draft", "@abc1:e3", "label", "Saved", "name"},
       R"({"field":"name","name":"Saved","ref":"@abc1:e3","role":"label","window":{"id":"w1","title":"Draft"}})"},
      {"a text whose snapshot was not stored", TextAppearedEvidence{"w1", "Draft", "", "label", "Saved", "value"},
       R"({"field":"value","name":"Saved","ref":null,"role":"label","window":{"id":"w1","title":"Draft"}})"},
      {"a menu opened", SurfaceOpenedEvidence{"w1", "Draft", "@abc1:e5", "menu", "menu", "File", 19, "@abc1:e5"},
       R"({"items":19,"kind":"menu","name":"File","opener":"@abc1:e5","ref":"@abc1:e5","role":"menu","window":{"id":"w1","title":"Draft"}})"},
      {"a top-level popup opened", SurfaceOpenedEvidence{"w2", "", "@abc2:e1", "menu", "popup menu", "", 3, ""},
       R"({"items":3,"kind":"menu","name":"","opener":null,"ref":"@abc2:e1","role":"popup menu","window":{"id":"w2","title":""}})"},
      {"an element gone", ElementEvidence{"@abc1:e3", "none", std::nullopt, std::nullopt, {}},
       R"({"presence":"none","ref":"@abc1:e3"})"},
      {"an element's value", ElementEvidence{"@abc1:e3", "one", "42", std::nullopt, {}},
       R"({"presence":"one","ref":"@abc1:e3","value":"42"})"},
      {"an element's state", ElementEvidence{"@abc1:e3", "one", std::nullopt, "checked", {"checked", "enabled"}},
       R"({"presence":"one","ref":"@abc1:e3","state":"checked","states":["checked","enabled"]})"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(wait_evidence_to_json(c.evidence).dump(), c.expected) << c.what;
  }
  WaitOutcome outcome;
  outcome.condition = "element";
  outcome.elapsed = std::chrono::milliseconds(7);
  outcome.seen_by = "start";
  outcome.evidence = ElementEvidence{"@abc1:e3", "one", std::nullopt, std::nullopt, {}};
  outcome.checks = 1;
  EXPECT_EQ(wait_outcome_to_json(outcome).dump(),
            R"({"checks":1,"condition":"element","elapsed_ms":7,"events":0,"events_active":false,)"
            R"("evidence":{"presence":"one","ref":"@abc1:e3"},"seen_by":"start"})");
}

}  // namespace
}  // namespace companyos::wire
