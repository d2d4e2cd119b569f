#include "daemon/wire/action_params.h"
#include "daemon/wire/a11y_replies.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::wire {
namespace {

using namespace a11y;
using nlohmann::json;

TEST(Expectation, ParsesEachKind) {
  auto window = parse_expectation({{"window", "Save As"}});
  ASSERT_TRUE(window.ok()) << window.error().message;
  EXPECT_EQ(window->kind, ExpectationKind::kWindowTitle);
  EXPECT_EQ(window->text, "Save As");
  EXPECT_EQ(window->timeout, std::chrono::milliseconds(3000));

  auto text = parse_expectation({{"text", "Saved"}, {"timeout_ms", 500}});
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(text->kind, ExpectationKind::kText);
  EXPECT_EQ(text->timeout, std::chrono::milliseconds(500));

  auto state = parse_expectation({{"state", "checked"}, {"ref", "@s1:e7"}});
  ASSERT_TRUE(state.ok()) << state.error().message;
  EXPECT_EQ(state->kind, ExpectationKind::kElementState);
  EXPECT_EQ(state->state, ATSPI_STATE_CHECKED);
  ASSERT_TRUE(state->element.has_value());
  EXPECT_EQ(std::get<RefTarget>(*state->element).ref, "@s1:e7");

  auto bare = parse_expectation({{"state", "expanded"}, {"ref", "e3"}, {"snapshot", "k2"}});
  ASSERT_TRUE(bare.ok()) << bare.error().message;
  EXPECT_EQ(std::get<RefTarget>(*bare->element).ref, "@k2:e3");
}

TEST(Expectation, RejectsBadSpecsNamingTheField) {
  struct Case {
    const char* what;
    json spec;
    const char* field;
  };
  const Case cases[] = {
      {"not an object", json("Save"), "expect."},
      {"empty", json::object(), "expect."},
      {"two kinds", {{"window", "A"}, {"text", "B"}}, "expect."},
      {"empty title", {{"window", ""}}, "expect.window"},
      {"title not a string", {{"window", 3}}, "expect.window"},
      {"unknown state", {{"state", "shiny"}, {"ref", "@s:e1"}}, "expect.state"},
      {"state without ref", {{"state", "checked"}}, "expect.ref"},
      {"bad ref", {{"state", "checked"}, {"ref", "s:e1"}}, "expect.ref"},
      {"ref with a window", {{"window", "A"}, {"ref", "@s:e1"}}, "expect.ref"},
      {"zero timeout", {{"text", "A"}, {"timeout_ms", 0}}, "expect.timeout_ms"},
      {"huge timeout", {{"text", "A"}, {"timeout_ms", 600000}}, "expect.timeout_ms"},
      {"fractional timeout", {{"text", "A"}, {"timeout_ms", 1.5}}, "expect.timeout_ms"},
      {"unknown key", {{"text", "A"}, {"within", 3}}, "expect.within"},
  };
  for (const Case& c : cases) {
    auto parsed = parse_expectation(c.spec);
    ASSERT_FALSE(parsed.ok()) << c.what;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs) << c.what;
    EXPECT_EQ(parsed.error().details["param"], c.field) << c.what;
  }
}

TEST(Expectation, ReportsWhatWasChecked) {
  auto expectation = parse_expectation({{"text", "Done"}, {"timeout_ms", 200}});
  ASSERT_TRUE(expectation.ok());
  ExpectationResult result;
  result.reason = "timeout";
  result.waited_ms = 201;
  const json shown = expectation_to_json(*expectation, result);
  EXPECT_EQ(shown["kind"], "text");
  EXPECT_EQ(shown["expected"], "Done");
  EXPECT_EQ(shown["met"], false);
  EXPECT_EQ(shown["reason"], "timeout");
  EXPECT_EQ(shown["timeout_ms"], 200);
}

}  // namespace
}  // namespace companyos::wire
