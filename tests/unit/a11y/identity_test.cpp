#include "a11y/read/identity.h"

#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

using testing::make_nodes;

TEST(Identity, TwinsShareRoleNameDescriptionAndId) {
  struct Case {
    const char* what;
    std::vector<Node> nodes;
    std::vector<int> groups;  // expected twin_group per node (0 = unique)
  };
  auto with_id = [](std::vector<Node> nodes, std::size_t i, const char* id) {
    nodes[i].accessible_id = id;
    return nodes;
  };
  auto with_description = [](std::vector<Node> nodes, std::size_t i, const char* text) {
    nodes[i].description = text;
    return nodes;
  };
  const auto two_saves = make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                                     {0, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                                     {0, ATSPI_ROLE_PUSH_BUTTON, "Save"}});
  const Case cases[] = {
      {"same identity", two_saves, {0, 1, 1}},
      {"ids differ", with_id(with_id(two_saves, 1, "a"), 2, "b"), {0, 0, 0}},
      {"same id", with_id(with_id(two_saves, 1, "a"), 2, "a"), {0, 1, 1}},
      {"descriptions differ", with_description(two_saves, 2, "second"), {0, 0, 0}},
      {"roles differ",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_TOGGLE_BUTTON, "Save"}}),
       {0, 0, 0}},
      {"two groups numbered in order",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_LABEL, "x"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_LABEL, "x"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"}}),
       {0, 1, 2, 1, 2, 2}},
      {"empty window", {}, {}},
  };
  for (const Case& c : cases) {
    auto nodes = c.nodes;
    mark_twins(nodes);
    ASSERT_EQ(nodes.size(), c.groups.size()) << c.what;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      EXPECT_EQ(nodes[i].twin_group, c.groups[i]) << c.what << " node " << i;
      EXPECT_EQ(nodes[i].twin, c.groups[i] != 0) << c.what << " node " << i;
    }
  }
}

TEST(Identity, EachTwinIsGivenTheHighestUniqueAncestorThatHoldsItAlone) {
  struct Case {
    const char* what;
    std::vector<Node> nodes;
    std::vector<int> scopes;  // expected twin_scope per node (-1: none)
  };
  const Case cases[] = {
      {"siblings: nothing holds one alone",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"}}),
       {-1, -1, -1}},
      {"in two named panels: each panel",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PANEL, "Left"},
                   {1, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_PANEL, "Right"},
                   {3, ATSPI_ROLE_PUSH_BUTTON, "Save"}}),
       {-1, -1, 1, -1, 3}},
      {"the highest of several unique ancestors",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PANEL, "Outer"},
                   {1, ATSPI_ROLE_FILLER, "Inner"},
                   {2, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_PUSH_BUTTON, "Save"}}),
       {-1, -1, -1, 1, -1}},
      {"nameless twin panels: the next unique one down",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PANEL, ""},
                   {1, ATSPI_ROLE_FILLER, "Left"},
                   {2, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_PANEL, ""},
                   {4, ATSPI_ROLE_FILLER, "Right"},
                   {5, ATSPI_ROLE_PUSH_BUTTON, "Save"}}),
       {-1, -1, -1, 2, -1, -1, 5}},
      {"only twins hold it: no scope",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PANEL, ""},
                   {1, ATSPI_ROLE_PUSH_BUTTON, "Save"},
                   {0, ATSPI_ROLE_PANEL, ""},
                   {3, ATSPI_ROLE_PUSH_BUTTON, "Save"}}),
       {-1, -1, -1, -1, -1}},
      {"a twin under another: the outer has none, the inner its own panel",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                   {0, ATSPI_ROLE_PANEL, "Box"},
                   {1, ATSPI_ROLE_LABEL, "x"},
                   {2, ATSPI_ROLE_PANEL, "Inner"},
                   {3, ATSPI_ROLE_LABEL, "x"}}),
       {-1, -1, -1, -1, 3}},
  };
  for (const Case& c : cases) {
    auto nodes = c.nodes;
    mark_twins(nodes);
    ASSERT_EQ(nodes.size(), c.scopes.size()) << c.what;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      EXPECT_EQ(nodes[i].twin_scope, c.scopes[i]) << c.what << " node " << i;
    }
  }
}

TEST(Identity, AGroupTooLargeGetsNoScopes) {
  std::vector<testing::Spec> specs = {{-1, ATSPI_ROLE_FRAME, "W"}};
  for (std::size_t i = 0; i <= kMaxScopedTwinGroup; ++i) {
    const int panel = static_cast<int>(specs.size());
    specs.push_back({0, ATSPI_ROLE_PANEL, "panel " + std::to_string(i)});
    specs.push_back({panel, ATSPI_ROLE_PUSH_BUTTON, "Save"});
  }
  auto nodes = make_nodes(specs);
  mark_twins(nodes);
  for (const Node& node : nodes) EXPECT_EQ(node.twin_scope, -1) << node.name;
  specs.resize(specs.size() - 2);  // at the limit, each has its panel
  nodes = make_nodes(specs);
  mark_twins(nodes);
  EXPECT_EQ(nodes[2].twin_scope, 1);
}

TEST(Identity, PositionAndValueAreNotIdentity) {
  auto nodes = make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                           {0, ATSPI_ROLE_TEXT, "Name"},
                           {0, ATSPI_ROLE_TEXT, "Name"}});
  nodes[1].bounds = Bounds{0, 0, 10, 10};
  nodes[2].bounds = Bounds{50, 50, 10, 10};
  nodes[1].value = "a";
  nodes[2].value = "b";
  EXPECT_EQ(identity_of(nodes[1]), identity_of(nodes[2]));
  mark_twins(nodes);
  EXPECT_TRUE(nodes[1].twin);
}

}  // namespace
}  // namespace companyos::a11y

namespace companyos::a11y {
namespace {

TEST(Identity, ResolvingComparesIdsOnlyWhereTheyWereRead) {
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_PUSH_BUTTON, "Save"}});
  Node live = nodes[0];
  live.accessible_id = "save";
  live.accessible_id_known = true;
  struct Case {
    const char* what;
    Identity saved;
    bool matches;
  };
  const Case cases[] = {
      {"id unread when saved", {ATSPI_ROLE_PUSH_BUTTON, "", false, "Save", ""}, true},
      {"same id", {ATSPI_ROLE_PUSH_BUTTON, "save", true, "Save", ""}, true},
      {"other id", {ATSPI_ROLE_PUSH_BUTTON, "other", true, "Save", ""}, false},
      {"saved without id, live has one", {ATSPI_ROLE_PUSH_BUTTON, "", true, "Save", ""}, false},
      {"renamed", {ATSPI_ROLE_PUSH_BUTTON, "save", true, "Store", ""}, false},
      {"other role", {ATSPI_ROLE_TOGGLE_BUTTON, "save", true, "Save", ""}, false},
      {"other description", {ATSPI_ROLE_PUSH_BUTTON, "save", true, "Save", "x"}, false},
  };
  for (const Case& c : cases) EXPECT_EQ(matches_identity(c.saved, live), c.matches) << c.what;
}

}  // namespace
}  // namespace companyos::a11y
