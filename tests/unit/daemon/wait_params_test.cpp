// The wait method's params: one condition form, its parts, the timeout's range.
#include "daemon/wire/wait_params.h"

#include "companyos/methods.h"
#include "daemon/method_table.h"

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>

namespace companyos::daemon::methods {

using wire::parse_wait_request;
using wire::WaitRequest;
namespace {

using nlohmann::json;

struct Refused {
  const char* what;
  json params;
  ErrorCode code;
  const char* message_part;
  friend void PrintTo(const Refused& c, std::ostream* os) { *os << c.what; }
};

// "closed false is no condition" -> "closed_false_is_no_condition"
std::string test_name(const ::testing::TestParamInfo<Refused>& info) {
  std::string name = info.param.what;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// As the dispatcher reads them: the declaration's checks (types, the timeout's range), then
// the form rules.
Result<WaitRequest> as_dispatched(const json& params) {
  if (auto fits = declared::check_params(declared::kWait, params); !fits) return std::move(fits).take_error();
  return parse_wait_request(params);
}

class WaitRequestRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(WaitRequestRefuses, WithTheCodeAndTheReason) {
  const Refused& c = GetParam();
  auto request = as_dispatched(c.params);
  ASSERT_FALSE(request.ok()) << c.what;
  EXPECT_EQ(request.error().code, c.code) << c.what << ": " << request.error().message;
  EXPECT_NE(request.error().message.find(c.message_part), std::string::npos)
      << c.what << ": " << request.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    BadParams, WaitRequestRefuses,
    ::testing::Values(
        Refused{"no condition", {{"app", "editor"}}, ErrorCode::kInvalidArgs, "needs a condition"},
        Refused{"closed false is no condition", {{"app", "editor"}, {"closed", false}},
                ErrorCode::kInvalidArgs, "needs a condition"},
        Refused{"window and text", {{"app", "editor"}, {"window", "A"}, {"text", "x"}},
                ErrorCode::kInvalidArgs, "not window and text"},
        Refused{"closed and ref", {{"app", "editor"}, {"closed", true}, {"ref", "@s1:e2"}},
                ErrorCode::kInvalidArgs, "not closed and ref"},
        Refused{"all four",
                {{"app", "e"}, {"window", "A"}, {"closed", true}, {"text", "x"}, {"ref", "@s1:e2"}},
                ErrorCode::kInvalidArgs, "not window, closed, text and ref"},
        Refused{"title without closed", {{"app", "editor"}, {"window", "A"}, {"title", "A"}},
                ErrorCode::kInvalidArgs, "title goes with closed"},
        Refused{"predicate without ref", {{"app", "editor"}, {"text", "x"}, {"predicate", "gone"}},
                ErrorCode::kInvalidArgs, "predicate goes with ref"},
        Refused{"value without ref", {{"app", "editor"}, {"window", "A"}, {"value", "v"}},
                ErrorCode::kInvalidArgs, "value goes with ref"},
        Refused{"window without app", {{"window", "A"}}, ErrorCode::kInvalidArgs, "needs the app"},
        Refused{"menu without app", {{"menu", true}}, ErrorCode::kInvalidArgs, "needs the app"},
        Refused{"menu and text", {{"app", "editor"}, {"menu", true}, {"text", "x"}}, ErrorCode::kInvalidArgs,
                "not text and menu"},
        Refused{"menu and surface", {{"app", "editor"}, {"menu", true}, {"surface", "list"}},
                ErrorCode::kInvalidArgs, "give menu or surface, not both"},
        Refused{"unknown surface kind", {{"app", "editor"}, {"surface", "popover"}}, ErrorCode::kInvalidArgs,
                "unknown surface kind"},
        Refused{"text without app", {{"text", "x"}}, ErrorCode::kInvalidArgs, "needs the app"},
        Refused{"empty app", {{"app", ""}, {"closed", true}}, ErrorCode::kInvalidArgs,
                "app name is empty"},
        Refused{"empty window title", {{"app", "editor"}, {"window", ""}}, ErrorCode::kInvalidArgs,
                "title is empty"},
        Refused{"empty closed title", {{"app", "editor"}, {"closed", true}, {"title", ""}},
                ErrorCode::kInvalidArgs, "title is empty"},
        Refused{"empty text", {{"app", "editor"}, {"text", ""}}, ErrorCode::kInvalidArgs,
                "text to wait for is empty"},
        Refused{"not a ref", {{"ref", "s1:e2"}}, ErrorCode::kInvalidArgs, "ref"},
        Refused{"unknown predicate", {{"ref", "@s1:e2"}, {"predicate", "equals"}},
                ErrorCode::kInvalidArgs, "unknown predicate"},
        Refused{"value predicate without value", {{"ref", "@s1:e2"}, {"predicate", "value"}},
                ErrorCode::kInvalidArgs, "needs a value"},
        Refused{"state predicate without value", {{"ref", "@s1:e2"}, {"predicate", "state"}},
                ErrorCode::kInvalidArgs, "needs a value"},
        Refused{"exists with a value", {{"ref", "@s1:e2"}, {"value", "x"}},
                ErrorCode::kInvalidArgs, "takes no value"},
        Refused{"unknown state", {{"ref", "@s1:e2"}, {"predicate", "state"}, {"value", "shiny"}},
                ErrorCode::kInvalidArgs, "unknown state"},
        Refused{"timeout zero", {{"app", "editor"}, {"window", "A"}, {"timeout_ms", 0}},
                ErrorCode::kInvalidArgs, "timeout_ms"},
        Refused{"timeout negative", {{"app", "editor"}, {"window", "A"}, {"timeout_ms", -5}},
                ErrorCode::kInvalidArgs, "timeout_ms"},
        Refused{"timeout above ten minutes",
                {{"app", "editor"}, {"window", "A"}, {"timeout_ms", 600001}},
                ErrorCode::kInvalidArgs, "timeout_ms"},
        Refused{"password manager", {{"app", "KeePassXC"}, {"window", "Vault"}},
                ErrorCode::kPolicyDenied, ""}),
    test_name);

TEST(WaitRequest, WindowAppears) {
  auto request = parse_wait_request({{"app", "editor"}, {"window", "Notes"}});
  ASSERT_TRUE(request.ok()) << request.error().message;
  const auto* c = std::get_if<a11y::WindowAppears>(&request->condition);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->app, "editor");
  EXPECT_EQ(c->title, "Notes");
  EXPECT_EQ(request->timeout, declared::kDefaultWaitTimeout);
}

TEST(WaitRequest, WindowClosedWithAndWithoutTitle) {
  auto any = parse_wait_request({{"app", "editor"}, {"closed", true}});
  ASSERT_TRUE(any.ok()) << any.error().message;
  EXPECT_FALSE(std::get<a11y::WindowClosed>(any->condition).title.has_value());
  auto titled = parse_wait_request({{"app", "editor"}, {"closed", true}, {"title", "Notes"}});
  ASSERT_TRUE(titled.ok()) << titled.error().message;
  EXPECT_EQ(std::get<a11y::WindowClosed>(titled->condition).title, "Notes");
}

TEST(WaitRequest, TextWithItsOwnTimeout) {
  auto request = parse_wait_request({{"app", "editor"}, {"text", "Saved"}, {"timeout_ms", 600000}});
  ASSERT_TRUE(request.ok()) << request.error().message;
  EXPECT_EQ(std::get<a11y::TextAppears>(request->condition).text, "Saved");
  EXPECT_EQ(request->timeout, declared::kMaxWaitTimeout);
}

TEST(WaitRequest, MenuAndSurfaceKinds) {
  auto menu = parse_wait_request({{"app", "editor"}, {"menu", true}});
  ASSERT_TRUE(menu.ok()) << menu.error().message;
  EXPECT_EQ(std::get<a11y::SurfaceOpens>(menu->condition).kind, a11y::SurfaceKind::kMenu);
  auto list = parse_wait_request({{"app", "editor"}, {"surface", "list"}});
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(std::get<a11y::SurfaceOpens>(list->condition).kind, a11y::SurfaceKind::kList);
  auto any = parse_wait_request({{"app", "editor"}, {"surface", "any"}});
  ASSERT_TRUE(any.ok()) << any.error().message;
  EXPECT_FALSE(std::get<a11y::SurfaceOpens>(any->condition).kind);
  auto menu_false = parse_wait_request({{"app", "editor"}, {"menu", false}});
  EXPECT_FALSE(menu_false.ok());
}

TEST(WaitRequest, ElementPredicateDefaultsToExistsAndKeepsTheApp) {
  auto plain = parse_wait_request({{"ref", "@s1:e2"}});
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(std::get<a11y::ElementPredicate>(plain->condition).predicate, a11y::Predicate::kExists);
  EXPECT_FALSE(plain->app.has_value());

  auto valued = parse_wait_request(
      {{"app", "editor"}, {"ref", "@s1:e2"}, {"predicate", "value"}, {"value", "42"}});
  ASSERT_TRUE(valued.ok()) << valued.error().message;
  const auto& c = std::get<a11y::ElementPredicate>(valued->condition);
  EXPECT_EQ(c.predicate, a11y::Predicate::kValue);
  EXPECT_EQ(c.value, "42");
  EXPECT_EQ(valued->app, "editor");
}

TEST(WaitRequest, TheConflictIsNamedInDetails) {
  auto request = parse_wait_request({{"app", "editor"}, {"window", "A"}, {"text", "x"}});
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.error().details["conflict"], json({"window", "text"}));
}

}  // namespace
}  // namespace companyos::daemon::methods
