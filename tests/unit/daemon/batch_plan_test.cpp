#include "daemon/methods/batch_plan.h"

#include <gtest/gtest.h>

#include "daemon/methods/element_actions.h"
#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {
namespace {

using nlohmann::json;

const MethodTable& table() {
  static const MethodTable built(all_methods());
  return built;
}

json step(std::string command, json args) { return {{"command", std::move(command)}, {"args", std::move(args)}}; }

json many(std::size_t count) {
  json steps = json::array();
  for (std::size_t i = 0; i < count; ++i) steps.push_back(step("click", {{"ref", "@abc:e1"}}));
  return steps;
}

struct BatchPlanCase {
  std::string name;
  json steps;
  std::optional<int> bad_step;  // the step INVALID_ARGS names; -1: the list itself; nullopt: valid
  friend void PrintTo(const BatchPlanCase& c, std::ostream* os) { *os << c.name; }
};

class BatchPlans : public ::testing::TestWithParam<BatchPlanCase> {};

TEST_P(BatchPlans, AreCheckedBeforeAnythingRuns) {
  const BatchPlanCase& c = GetParam();
  auto planned = plan_batch(c.steps, table());
  if (!c.bad_step) {
    ASSERT_TRUE(planned.ok()) << planned.error().message;
    ASSERT_EQ(planned->size(), c.steps.size());
    for (std::size_t i = 0; i < planned->size(); ++i) {
      EXPECT_EQ((*planned)[i].command, c.steps[i]["command"]);
      EXPECT_NE((*planned)[i].spec, nullptr);
    }
    return;
  }
  ASSERT_FALSE(planned.ok());
  EXPECT_EQ(planned.error().code, ErrorCode::kInvalidArgs);
  if (*c.bad_step >= 0) {
    EXPECT_EQ(planned.error().details["step"], *c.bad_step) << planned.error().message;
  } else {
    EXPECT_FALSE(planned.error().details.contains("step"));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, BatchPlans,
    ::testing::Values(
        BatchPlanCase{"cli_spellings", json::array({step("set-value", {{"ref", "@abc:e3"}, {"value", "x"}}),
                                           step("click", {{"ref", "@abc:e4"}}),
                                           step("focus-window", {{"app", "gedit"}})}),
             std::nullopt},
        BatchPlanCase{"protocol_spellings", json::array({step("set_value", {{"ref", "@abc:e3"}, {"value", 4}}),
                                                step("close_window", {{"app", "gedit"}})}),
             std::nullopt},
        BatchPlanCase{"args_may_be_left_out_for_schema_check", json::array({json{{"command", "focus"}}}), std::nullopt},
        BatchPlanCase{"every_action", json::array({step("toggle", json::object()), step("select", json::object()), step("expand", json::object()),
                                          step("collapse", json::object()), step("action", {{"action", "x"}}),
                                          step("type", {{"text", "t"}}), step("press", {{"app", "a"}, {"chord", "a"}})}),
             std::nullopt},
        BatchPlanCase{"exactly_the_limit", many(kMaxBatchSteps), std::nullopt},
        BatchPlanCase{"one_over_the_limit", many(kMaxBatchSteps + 1), -1},
        BatchPlanCase{"empty", json::array(), -1},
        BatchPlanCase{"not_a_list", json{{"command", "click"}}, -1},
        BatchPlanCase{"unknown_command", json::array({step("click", json::object()), step("explode", json::object())}), 1},
        BatchPlanCase{"observation_is_not_an_action", json::array({step("snapshot", {{"app", "gedit"}})}), 0},
        BatchPlanCase{"settings_are_not_an_action", json::array({step("settings.set", {{"key", "physical_input"}, {"value", true}})}), 0},
        BatchPlanCase{"nested_batch", json::array({step("click", json::object()), step("batch", {{"steps", json::array()}})}), 1},
        BatchPlanCase{"step_not_an_object", json::array({"click"}), 0},
        BatchPlanCase{"command_not_a_string", json::array({json{{"command", 3}}}), 0},
        BatchPlanCase{"missing_command", json::array({json{{"args", json::object()}}}), 0},
        BatchPlanCase{"extra_field", json::array({json{{"command", "click"}, {"headed", true}}}), 0},
        BatchPlanCase{"args_not_an_object", json::array({json{{"command", "click"}, {"args", "@abc:e1"}}}), 0},
        BatchPlanCase{"unknown_param", json::array({step("click", {{"ref", "@abc:e1"}, {"colour", "red"}})}), 0},
        BatchPlanCase{"headed_is_only_for_click", json::array({step("toggle", {{"ref", "@abc:e1"}, {"headed", true}})}), 0},
        BatchPlanCase{"missing_required_param", json::array({step("click", json::object()), step("set_value", {{"ref", "@abc:e1"}})}), 1},
        BatchPlanCase{"wrong_type", json::array({step("click", {{"ref", "@abc:e1"}, {"strict", "yes"}})}), 0}),
    [](const ::testing::TestParamInfo<BatchPlanCase>& info) { return info.param.name; });

TEST(ElementActionKinds, FollowTheProtocolSpelling) {
  const std::vector<std::pair<std::string, std::optional<a11y::ActionKind>>> cases = {
      {"click", a11y::ActionKind::kClick},       {"toggle", a11y::ActionKind::kToggle},
      {"select", a11y::ActionKind::kSelect},     {"focus", a11y::ActionKind::kFocus},
      {"expand", a11y::ActionKind::kExpand},     {"collapse", a11y::ActionKind::kCollapse},
      {"action", a11y::ActionKind::kNamed},      {"set_value", a11y::ActionKind::kSetValue},
      {"type", a11y::ActionKind::kType},         {"set-value", std::nullopt},
      {"press", std::nullopt},                   {"focus_window", std::nullopt},
      {"", std::nullopt},                        {"Click", std::nullopt}};
  for (const auto& [method, kind] : cases) {
    EXPECT_EQ(element_action_kind(method), kind) << method;
    if (kind) {
      EXPECT_NE(table().find(method), nullptr) << method << " is not in the method table";
    }
  }
}

TEST(ElementActionRequests, RefuseBadParamsWithNothingDelivered) {
  const a11y::SnapshotStore empty;
  const std::vector<json> bad = {
      json::object(),                                           // no target
      {{"ref", "e3"}},                                          // bare ref, no snapshot, no app
      {{"ref", "e3"}, {"app", "gedit"}},                        // bare ref, no snapshot of gedit known
      {{"ref", "@abc:e3"}, {"role", "push button"}},            // ref and selector
      {{"app", "gedit"}, {"role", "no such role"}, {"name", "x"}},
      {{"ref", "@abc:e3"}, {"value", "x"}},                     // click takes no value
  };
  for (const json& params : bad) {
    auto request = element_action_request(a11y::ActionKind::kClick, params, empty);
    ASSERT_FALSE(request.ok()) << params.dump();
    EXPECT_EQ(request.error().code, ErrorCode::kInvalidArgs) << params.dump();
    EXPECT_EQ(request.error().details["delivery"], "not_delivered") << params.dump();
    EXPECT_EQ(request.error().retry, Retry::kSafe);
  }
  auto fine = element_action_request(a11y::ActionKind::kSetValue,
                                     {{"ref", "@abc:e3"}, {"value", "v"}, {"timeout_ms", 100}}, empty);
  ASSERT_TRUE(fine.ok()) << fine.error().message;
  EXPECT_EQ(fine->argument, "v");
  auto secret = element_action_request(a11y::ActionKind::kType,
                                       {{"ref", "@abc:e3"}, {"text", "hunter2"}, {"secret", true}}, empty);
  ASSERT_TRUE(secret.ok());
  EXPECT_TRUE(secret->secret);
}

}  // namespace
}  // namespace companyos::daemon::methods
