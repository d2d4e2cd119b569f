#include "wire/action_params.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::wire {
namespace {

using namespace a11y;
using nlohmann::json;

TEST(ActionTarget, ParsesRefs) {
  struct Case {
    json params;
    const char* ref;
  };
  const Case cases[] = {
      {{{"ref", "@s1a:e12"}}, "@s1a:e12"},
      {{{"ref", "e12"}, {"snapshot", "s1a"}}, "@s1a:e12"},
      {{{"ref", "@k:e1"}, {"value", "kept for the method"}}, "@k:e1"},
      {{{"ref", "@k:e1"}, {"app", nullptr}}, "@k:e1"},
  };
  for (const Case& c : cases) {
    auto target = parse_target(c.params);
    ASSERT_TRUE(target.ok()) << c.params.dump() << ": " << target.error().message;
    ASSERT_TRUE(std::holds_alternative<RefTarget>(*target)) << c.params.dump();
    EXPECT_EQ(std::get<RefTarget>(*target).ref, c.ref);
  }
}

TEST(ActionTarget, ParsesAScope) {
  struct ScopeCase {
    json params;
    const char* within;  // nullptr: none
  };
  const ScopeCase cases[] = {
      {{{"ref", "@s1a:e12"}}, nullptr},
      {{{"ref", "@s1a:e12"}, {"within", "@s1a:e3"}}, "@s1a:e3"},
      {{{"ref", "@s1a:e12"}, {"within", "e3"}}, "@s1a:e3"},  // a bare scope: the ref's snapshot
      {{{"ref", "e12"}, {"snapshot", "s1a"}, {"within", "e3"}}, "@s1a:e3"},
      {{{"ref", "@s1a:e12"}, {"within", "@s1b:e3"}}, "@s1b:e3"},  // checked when resolved
      {{{"ref", "@s1a:e12"}, {"within", nullptr}}, nullptr},
  };
  for (const ScopeCase& c : cases) {
    auto target = parse_target(c.params);
    ASSERT_TRUE(target.ok()) << c.params.dump() << ": " << target.error().message;
    const auto& within = std::get<RefTarget>(*target).within;
    EXPECT_EQ(within.has_value(), c.within != nullptr) << c.params.dump();
    if (c.within != nullptr && within) {
      EXPECT_EQ(*within, c.within) << c.params.dump();
    }
  }
  auto selector = parse_target(
      {{"app", "gedit"}, {"role", "push button"}, {"name", "Save"}, {"within", "@s1a:e3"}});
  ASSERT_TRUE(selector.ok()) << selector.error().message;
  EXPECT_EQ(std::get<Selector>(*selector).within, "@s1a:e3");
}

TEST(ActionTarget, ParsesSelectors) {
  auto target = parse_target({{"app", "gedit"}, {"role", "push button"}, {"name", "Save"}});
  ASSERT_TRUE(target.ok()) << target.error().message;
  const Selector expected{"gedit", ATSPI_ROLE_PUSH_BUTTON, "Save", std::nullopt, std::nullopt,
                          std::nullopt};
  EXPECT_EQ(std::get<Selector>(*target), expected);
  EXPECT_EQ(describe(*target), "push button \"Save\" in app gedit");

  auto full = parse_target({{"app", "fx"},
                            {"role", "check box"},
                            {"name", ""},
                            {"id", "enable-feature"},
                            {"window", "w0123456789ab"}});
  ASSERT_TRUE(full.ok()) << full.error().message;
  const auto& selector = std::get<Selector>(*full);
  EXPECT_EQ(selector.role, static_cast<std::uint32_t>(ATSPI_ROLE_CHECK_BOX));
  EXPECT_EQ(selector.name, "");
  EXPECT_EQ(selector.accessible_id, "enable-feature");
  EXPECT_EQ(selector.window_id, "w0123456789ab");
  EXPECT_FALSE(selector.title.has_value());

  auto titled = parse_target({{"app", "fx"}, {"role", "text"}, {"name", "Text"}, {"title", "T"}});
  ASSERT_TRUE(titled.ok());
  EXPECT_EQ(std::get<Selector>(*titled).title, "T");
}

TEST(ActionTarget, RejectsBadInputNamingTheField) {
  struct Case {
    const char* what;
    json params;
    const char* field;
  };
  const Case cases[] = {
      {"not an object", json::array({"@s:e1"}), nullptr},
      {"nothing", json::object(), "ref"},
      {"both forms", {{"ref", "@s:e1"}, {"app", "gedit"}}, "ref"},
      {"ref and role", {{"ref", "@s:e1"}, {"role", "push button"}}, "ref"},
      {"ref not a string", {{"ref", 12}}, "ref"},
      {"malformed ref", {{"ref", "@S:e1"}}, "ref"},
      {"bare ref without snapshot", {{"ref", "e12"}}, "snapshot"},
      {"snapshot twice", {{"ref", "@s:e1"}, {"snapshot", "s"}}, "snapshot"},
      {"bad snapshot id", {{"ref", "e1"}, {"snapshot", "A-1"}}, "snapshot"},
      {"bad bare ref", {{"ref", "e0"}, {"snapshot", "s"}}, "ref"},
      {"snapshot alone", {{"snapshot", "s"}}, "snapshot"},
      {"no app", {{"role", "push button"}, {"name", "OK"}}, "app"},
      {"empty app", {{"app", ""}, {"role", "push button"}, {"name", "OK"}}, "app"},
      {"app not a string", {{"app", 3}, {"role", "push button"}, {"name", "OK"}}, "app"},
      {"no role", {{"app", "gedit"}, {"name", "OK"}}, "role"},
      {"unknown role", {{"app", "gedit"}, {"role", "pushbutton"}, {"name", "OK"}}, "role"},
      {"role case", {{"app", "gedit"}, {"role", "Push Button"}, {"name", "OK"}}, "role"},
      {"no name", {{"app", "gedit"}, {"role", "push button"}}, "name"},
      {"name not a string", {{"app", "gedit"}, {"role", "push button"}, {"name", true}}, "name"},
      {"id not a string",
       {{"app", "gedit"}, {"role", "push button"}, {"name", "OK"}, {"id", 5}}, "id"},
      {"window and title",
       {{"app", "g"}, {"role", "push button"}, {"name", "OK"}, {"window", "w1"}, {"title", "T"}},
       "title"},
      {"only an id", {{"id", "save"}}, "app"},
      {"within not a string", {{"ref", "@s:e4"}, {"within", 2}}, "within"},
      {"malformed within", {{"ref", "@s:e4"}, {"within", "@S:e1"}}, "within"},
      {"bare within with a selector",
       {{"app", "g"}, {"role", "push button"}, {"name", "OK"}, {"within", "e2"}}, "within"},
  };
  for (const Case& c : cases) {
    auto target = parse_target(c.params);
    ASSERT_FALSE(target.ok()) << c.what;
    EXPECT_EQ(target.error().code, ErrorCode::kInvalidArgs) << c.what;
    if (c.field != nullptr) {
      const auto& details = target.error().details;
      const bool names_field = (details.contains("param") && details["param"] == c.field) ||
                               (details.contains("ref"));  // parse_ref names the ref itself
      EXPECT_TRUE(names_field) << c.what << ": " << details.dump();
    }
  }
}

}  // namespace
}  // namespace companyos::wire
