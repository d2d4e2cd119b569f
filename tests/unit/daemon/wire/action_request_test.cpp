#include "daemon/wire/action_params.h"

#include <gtest/gtest.h>

namespace companyos::wire {
namespace {

using namespace a11y;
using nlohmann::json;

TEST(ActionRequest, ParsesEachMethodsArgument) {
  struct Case {
    ActionKind kind;
    json params;
    const char* argument;
  };
  const Case cases[] = {
      {ActionKind::kClick, {{"ref", "@s:e1"}}, ""},
      {ActionKind::kSetValue, {{"ref", "@s:e1"}, {"value", "a $b; \"c\" ü"}}, "a $b; \"c\" ü"},
      {ActionKind::kSetValue, {{"ref", "@s:e1"}, {"value", ""}}, ""},
      {ActionKind::kSetValue, {{"ref", "@s:e1"}, {"value", 42}}, "42"},
      {ActionKind::kSetValue, {{"ref", "@s:e1"}, {"value", 0.5}}, "0.5"},
      {ActionKind::kType, {{"ref", "@s:e1"}, {"text", "xyz"}}, "xyz"},
      {ActionKind::kNamed, {{"ref", "@s:e1"}, {"action", "expand or contract"}}, "expand or contract"},
  };
  for (const Case& c : cases) {
    auto request = parse_action_request(c.kind, c.params);
    ASSERT_TRUE(request.ok()) << c.params.dump() << ": " << request.error().message;
    EXPECT_EQ(request->kind, c.kind);
    EXPECT_EQ(request->argument, c.argument) << c.params.dump();
    EXPECT_FALSE(request->strict);
    EXPECT_FALSE(request->secret);
    EXPECT_FALSE(request->expect.has_value());
  }
  auto full = parse_action_request(
      ActionKind::kClick,
      {{"app", "fx"}, {"role", "push button"}, {"name", "Write effect"}, {"strict", true},
       {"expect", {{"window", "Done"}}}});
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_TRUE(full->strict);
  ASSERT_TRUE(full->expect.has_value());
  EXPECT_EQ(full->expect->kind, ExpectationKind::kWindowTitle);
  EXPECT_TRUE(std::holds_alternative<Selector>(full->target));
  auto secret = parse_action_request(ActionKind::kType,
                                     {{"ref", "@s:e1"}, {"text", "pw"}, {"secret", true}});
  ASSERT_TRUE(secret.ok());
  EXPECT_TRUE(secret->secret);
}

TEST(ActionRequest, RejectsBadInputWithoutEchoingValues) {
  struct Case {
    const char* what;
    ActionKind kind;
    json params;
    const char* field;
  };
  // Every value below holds this marker; no error may repeat it.
  const std::string marker = "SECRET-VALUE";
  const Case cases[] = {
      {"no target", ActionKind::kClick, json::object(), "ref"},
      {"params not an object", ActionKind::kClick, json::array(), "params"},
      {"set-value without value", ActionKind::kSetValue, {{"ref", "@s:e1"}}, "value"},
      {"value not text", ActionKind::kSetValue, {{"ref", "@s:e1"}, {"value", json::array({marker})}},
       "value"},
      {"value with NUL", ActionKind::kSetValue,
       {{"ref", "@s:e1"}, {"value", marker + std::string("\0x", 2)}}, "value"},
      {"type without text", ActionKind::kType, {{"ref", "@s:e1"}}, "text"},
      {"type with empty text", ActionKind::kType, {{"ref", "@s:e1"}, {"text", ""}}, "text"},
      {"type with a number", ActionKind::kType, {{"ref", "@s:e1"}, {"text", 5}}, "text"},
      {"action without name", ActionKind::kNamed, {{"ref", "@s:e1"}}, "action"},
      {"action empty", ActionKind::kNamed, {{"ref", "@s:e1"}, {"action", ""}}, "action"},
      {"value for a click", ActionKind::kClick, {{"ref", "@s:e1"}, {"value", marker}}, "value"},
      {"text for set-value", ActionKind::kSetValue,
       {{"ref", "@s:e1"}, {"value", marker}, {"text", marker}}, "text"},
      {"strict not a flag", ActionKind::kClick, {{"ref", "@s:e1"}, {"strict", "yes"}}, "strict"},
      {"secret not a flag", ActionKind::kType, {{"ref", "@s:e1"}, {"text", marker}, {"secret", 1}},
       "secret"},
      {"bad expectation", ActionKind::kClick, {{"ref", "@s:e1"}, {"expect", {{"colour", "red"}}}},
       "expect."},
  };
  for (const Case& c : cases) {
    auto request = parse_action_request(c.kind, c.params);
    ASSERT_FALSE(request.ok()) << c.what;
    EXPECT_EQ(request.error().code, ErrorCode::kInvalidArgs) << c.what;
    EXPECT_EQ(request.error().details["param"], c.field) << c.what;
    const std::string shown = request.error().message + request.error().details.dump() +
                              request.error().suggestion;
    EXPECT_EQ(shown.find(marker), std::string::npos) << c.what << ": " << shown;
  }
  // Bytes that are not UTF-8 cannot travel on D-Bus: refused before anything is sent.
  json not_utf8 = {{"ref", "@s:e1"}};
  not_utf8["value"] = std::string("caf\xe9");
  auto refused = parse_action_request(ActionKind::kSetValue, not_utf8);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().details["param"], "value");
}

}  // namespace
}  // namespace companyos::wire
