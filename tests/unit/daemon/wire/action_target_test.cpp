#include "daemon/wire/action_params.h"

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

namespace companyos::wire {
namespace {

TEST(ActionTarget, ACellOfTheTableTheRefOrSelectorNames) {
  struct Case {
    const char* what;
    json params;
    std::optional<CellAddress> cell;
    const char* described;
  };
  const Case cases[] = {
      {"a ref's table", {{"ref", "@s1a:e57"}, {"cell", "B3"}}, CellAddress{2, 1}, "cell B3 of @s1a:e57"},
      {"an absolute address", {{"ref", "@s1a:e57"}, {"cell", "$Z$500"}}, CellAddress{499, 25}, "cell Z500 of @s1a:e57"},
      {"a named table", {{"app", "soffice"}, {"role", "table"}, {"name", "Sheet Sheet1"}, {"cell", "a1"}},
       CellAddress{0, 0}, "cell A1 of table \"Sheet Sheet1\" in app soffice"},
      {"the window's one table", {{"app", "soffice"}, {"cell", "XFD1048576"}}, CellAddress{1'048'575, 16'383},
       "cell XFD1048576 of the table in app soffice"},
      {"no cell", {{"ref", "@s1a:e57"}, {"cell", nullptr}}, std::nullopt, "@s1a:e57"},
  };
  for (const Case& c : cases) {
    auto target = parse_target(c.params);
    ASSERT_TRUE(target.ok()) << c.what << ": " << target.error().message;
    std::visit([&](const auto& t) { EXPECT_EQ(t.cell, c.cell) << c.what; }, *target);
    EXPECT_EQ(describe(*target), c.described) << c.what;
  }
  auto the_table = parse_target({{"app", "soffice"}, {"cell", "B2"}});
  ASSERT_TRUE(the_table.ok());
  EXPECT_EQ(std::get<Selector>(*the_table).role, 0u);
}

TEST(ActionTarget, BadCellsAreRefusedNamingTheParam) {
  struct Case {
    const char* what;
    json params;
    const char* param;
  };
  const Case cases[] = {
      {"no row", {{"ref", "@s1a:e57"}, {"cell", "B"}}, "cell"},
      {"row 0", {{"ref", "@s1a:e57"}, {"cell", "B0"}}, "cell"},
      {"not a string", {{"ref", "@s1a:e57"}, {"cell", 3}}, "cell"},
      {"a range", {{"ref", "@s1a:e57"}, {"cell", "A1:B2"}}, "cell"},
      {"past the largest column", {{"app", "x"}, {"cell", "ZZZZZZZ1"}}, "cell"},
      {"app alone without a cell", {{"app", "soffice"}}, "role"},
      {"a role without a name", {{"app", "soffice"}, {"role", "table"}, {"cell", "A1"}}, "name"},
  };
  for (const Case& c : cases) {
    auto target = parse_target(c.params);
    ASSERT_FALSE(target.ok()) << c.what;
    EXPECT_EQ(target.error().code, ErrorCode::kInvalidArgs) << c.what;
    EXPECT_EQ(target.error().details.value("param", ""), c.param) << c.what << ": " << target.error().message;
  }
}

}  // namespace
}  // namespace companyos::wire
