#include "a11y/view.h"
#include "a11y/render.h"

#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

using testing::editor_nodes;
using testing::snapshot_of;
using testing::view_options;
using testing::make_nodes;

ViewOptions rooted_at(int root, ViewOptions options) {
  options.root = root;
  return options;
}

// "e1(e2(e3(e4,e5,e6,e7(e8))))": refs of the view, with "+K" after a node that hides K.
std::string shape(const std::vector<Node>& nodes, const ViewNode& view) {
  std::string text = "e" + std::to_string(nodes[static_cast<std::size_t>(view.node)].ref);
  if (view.hidden > 0) text += "+" + std::to_string(view.hidden);
  if (!view.children.empty()) {
    text += "(";
    for (std::size_t i = 0; i < view.children.size(); ++i) {
      if (i > 0) text += ",";
      text += shape(nodes, view.children[i]);
    }
    text += ")";
  }
  return text;
}

TEST(View, FiltersKeepRefsAndSayWhereTheyCut) {
  struct Case {
    const char* what;
    ViewOptions options;
    std::string expected;
  };
  const Case cases[] = {
      {"full tree", {}, "e1(e2(e3(e4,e5,e6,e7(e8))))"},
      {"interactive keeps actionable nodes and ancestors", view_options(true, false, std::nullopt),
       "e1(e2(e3(e5,e6,e7(e8))))"},
      {"compact folds nameless single-child wrappers", view_options(false, true, std::nullopt),
       "e1(e3(e4,e5,e6,e8))"},
      {"interactive and compact", view_options(true, true, std::nullopt), "e1(e3(e5,e6,e8))"},
      {"depth 0 keeps only the window", view_options(false, false, 0), "e1+7"},
      {"depth 1 (wrappers are not levels)", view_options(false, false, 1), "e1(e2(e3+5))"},
      {"depth 2", view_options(false, false, 2), "e1(e2(e3(e4,e5,e6,e7(e8))))"},
      {"depth 1 compact", view_options(false, true, 1), "e1(e3+5)"},
      {"negative depth hides all but the window", view_options(false, false, -1), "e1+7"},
      {"rooted at a node (a surface)", rooted_at(2, {}), "e3(e4,e5,e6,e7(e8))"},
      {"rooted, interactive keeps the root", rooted_at(6, view_options(true, false, std::nullopt)), "e7(e8)"},
      {"rooted, the root is never folded", rooted_at(6, view_options(false, true, std::nullopt)), "e7(e8)"},
      {"rooted, depth counts from the root", rooted_at(2, view_options(false, false, 0)), "e3+5"},
      {"a root past the end views nothing", rooted_at(99, {}), "e1"},
  };
  const auto nodes = editor_nodes();
  for (const Case& c : cases) {
    EXPECT_EQ(shape(nodes, make_view(nodes, c.options)), c.expected) << c.what;
  }
}

// GNOME Calculator's view had a bare "panel" line for every group of buttons: nameless,
// actionless groups fold in the agent view whatever their number of children; a named or
// actionable group stays, and so does one that carries a count of what is not showing.
TEST(View, TheAgentViewFoldsNamelessGroups) {
  const auto nodes = make_nodes({
      {-1, ATSPI_ROLE_FRAME, "Calc"},
      {0, ATSPI_ROLE_PANEL, ""},                                // e2 nameless group
      {1, ATSPI_ROLE_PUSH_BUTTON, "1", {"click"}},              // e3
      {1, ATSPI_ROLE_PUSH_BUTTON, "2", {"click"}},              // e4
      {0, ATSPI_ROLE_PANEL, "Keypad"},                          // e5 named: kept
      {4, ATSPI_ROLE_PUSH_BUTTON, "3", {"click"}},              // e6
      {4, ATSPI_ROLE_PUSH_BUTTON, "4", {"click"}},              // e7
      {0, ATSPI_ROLE_PANEL, "", {"cal.solve"}},                 // e8 acts itself: kept
      {7, ATSPI_ROLE_PUSH_BUTTON, "=", {"click"}},              // e9
      {7, ATSPI_ROLE_PUSH_BUTTON, "+", {"click"}},              // e10
      {0, ATSPI_ROLE_PANEL, ""},                                // e11 nested nameless groups
      {10, ATSPI_ROLE_FILLER, ""},                              // e12
      {11, ATSPI_ROLE_PUSH_BUTTON, "a", {"click"}},             // e13
      {11, ATSPI_ROLE_PUSH_BUTTON, "b", {"click"}},             // e14
      {10, ATSPI_ROLE_PUSH_BUTTON, "c", {"click"}},             // e15
  });
  ViewOptions agent = view_options(true, true, std::nullopt);
  agent.fold_nameless_groups = true;
  EXPECT_EQ(shape(nodes, make_view(nodes, agent)), "e1(e3,e4,e5(e6,e7),e8(e9,e10),e13,e14,e15)");
  // Without it, compact folds single-child wrappers only.
  EXPECT_EQ(shape(nodes, make_view(nodes, view_options(true, true, std::nullopt))),
            "e1(e2(e3,e4),e5(e6,e7),e8(e9,e10),e11(e12(e13,e14),e15))");
  // Depth still counts semantic levels: folded groups are no level.
  agent.max_depth = 1;
  EXPECT_EQ(shape(nodes, make_view(nodes, agent)), "e1(e3,e4,e5+2,e8+2,e13,e14,e15)");
}

TEST(View, ActionableMeansMoreThanFocus) {
  struct Case {
    std::vector<std::string> actions;
    std::vector<AtspiStateType> states;
    bool expected;
  };
  const Case cases[] = {
      {{}, {}, false},
      {{"focus"}, {}, false},
      {{"focus", "click"}, {}, true},
      {{"activate"}, {}, true},
      {{}, {ATSPI_STATE_EDITABLE}, true},
      {{}, {ATSPI_STATE_SELECTABLE}, true},
      {{}, {ATSPI_STATE_FOCUSABLE}, false},
  };
  for (const Case& c : cases) {
    auto nodes = make_nodes({{-1, ATSPI_ROLE_PUSH_BUTTON, "x", c.actions, c.states}});
    EXPECT_EQ(is_actionable(nodes[0]), c.expected);
  }
}

TEST(View, ActionsEveryNodeListsDoNotMakeANodeActionable) {
  const std::vector<std::string> chromium = {"doDefault", "showContextMenu"};
  struct Case {
    std::vector<std::string> actions;
    std::vector<AtspiStateType> states;
    bool expected;
  };
  const Case cases[] = {
      {{"doDefault", "showContextMenu"}, {}, false},
      {{"showContextMenu"}, {}, false},
      {{"press", "showContextMenu"}, {}, true},
      {{"doDefault"}, {ATSPI_STATE_SELECTABLE}, true},
      {{"doDefault", "showContextMenu"}, {ATSPI_STATE_EDITABLE}, true},
  };
  for (const Case& c : cases) {
    auto nodes = make_nodes({{-1, ATSPI_ROLE_PANEL, "", c.actions, c.states}});
    EXPECT_EQ(is_actionable(nodes[0], chromium), c.expected);
  }
  // Elsewhere they are actions like any other.
  auto panel = make_nodes({{-1, ATSPI_ROLE_PANEL, "", {"doDefault"}}});
  EXPECT_TRUE(is_actionable(panel[0]));
}

TEST(View, ASecondMenuBarWithTheSameMenusIsListedOnceWithoutThem) {
  auto nodes = make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                           {0, ATSPI_ROLE_MENU_BAR, ""},
                           {1, ATSPI_ROLE_MENU, "File", {"click"}},
                           {1, ATSPI_ROLE_MENU, "Edit", {"click"}},
                           {0, ATSPI_ROLE_MENU_BAR, ""},
                           {4, ATSPI_ROLE_MENU, "File", {"click"}},
                           {4, ATSPI_ROLE_MENU, "Edit", {"click"}},
                           {0, ATSPI_ROLE_MENU_BAR, ""},
                           {7, ATSPI_ROLE_MENU, "File", {"click"}}});
  ViewOptions agent = view_options(true, true, std::nullopt);
  agent.fold_repeated_menu_bars = true;
  const ViewNode view = make_view(nodes, agent);
  ASSERT_EQ(view.children.size(), 3u);
  EXPECT_EQ(view.children[0].same_as, -1);
  EXPECT_EQ(view.children[0].children.size(), 2u);
  EXPECT_EQ(view.children[1].same_as, 1);
  EXPECT_TRUE(view.children[1].children.empty());
  EXPECT_EQ(view.children[2].same_as, -1) << "other menus: listed";
  EXPECT_EQ(view.children[2].children.size(), 1u);
  // Without the option both are listed in full.
  const ViewNode full = make_view(nodes, view_options(true, true, std::nullopt));
  EXPECT_EQ(full.children[1].children.size(), 2u);
  const std::string outline = render_outline(snapshot_of(nodes), view);
  EXPECT_NE(outline.find("e5 menu bar (the same menus as e2)\n"), std::string::npos) << outline;
}

TEST(View, Gtk4LabelsWithOnlyTheirTextWidgetActionsAreNotActionable) {
  const std::vector<std::string> gtk4_label_actions = {
      "clipboard.copy", "selection.delete", "clipboard.paste", "link.open",
      "clipboard.cut",  "link.copy",        "menu.popup",      "selection.select-all"};
  auto label = make_nodes({{-1, ATSPI_ROLE_LABEL, "7", gtk4_label_actions}});
  EXPECT_FALSE(is_actionable(label[0]));
  auto with_click = gtk4_label_actions;
  with_click.push_back("click");
  auto clickable = make_nodes({{-1, ATSPI_ROLE_LABEL, "7", with_click}});
  EXPECT_TRUE(is_actionable(clickable[0]));
  // Only labels: a text field's clipboard action is an action.
  auto field = make_nodes({{-1, ATSPI_ROLE_TEXT, "", {"clipboard.paste"}}});
  EXPECT_TRUE(is_actionable(field[0]));
}

TEST(View, WindowOnlyAndEmptySnapshots) {
  const auto lone = make_nodes({{-1, ATSPI_ROLE_FRAME, "W"}});
  EXPECT_EQ(shape(lone, make_view(lone, view_options(true, false, std::nullopt))), "e1");
  const std::vector<Node> none;
  EXPECT_TRUE(make_view(none, {}).children.empty());
}

TEST(View, NamedOrActionableContainersAreLevels) {
  // A named panel with one child is a level even when nameless ones are not.
  const auto nodes = make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                                 {0, ATSPI_ROLE_PANEL, "Named"},
                                 {1, ATSPI_ROLE_PUSH_BUTTON, "OK", {"click"}}});
  EXPECT_EQ(shape(nodes, make_view(nodes, view_options(false, true, std::nullopt))), "e1(e2(e3))");
  EXPECT_EQ(shape(nodes, make_view(nodes, view_options(false, false, 1))), "e1(e2+1)");
}

TEST(View, TheAgentViewFoldsWhatIsNotShowingIntoACount) {
  constexpr auto kShowing = ATSPI_STATE_SHOWING;
  const auto nodes = make_nodes({
      {-1, ATSPI_ROLE_FRAME, "W", {}, {kShowing}},
      {0, ATSPI_ROLE_MENU_BAR, "", {}, {kShowing}},
      {1, ATSPI_ROLE_MENU, "File", {"click"}, {kShowing}},
      {2, ATSPI_ROLE_MENU_ITEM, "New", {"click"}},
      {2, ATSPI_ROLE_SEPARATOR, "", {}, {ATSPI_STATE_SELECTABLE}},
      {2, ATSPI_ROLE_MENU, "Recent", {"click"}},
      {5, ATSPI_ROLE_MENU_ITEM, "a.txt", {"click"}},
      {0, ATSPI_ROLE_PUSH_BUTTON, "OK", {"click"}, {kShowing}},
      {0, ATSPI_ROLE_LABEL, "Hint", {"clickAncestor"}, {kShowing}},
  });
  ViewOptions agent = view_options(true, true, std::nullopt);
  agent.fold_not_showing = true;
  const ViewNode view = make_view(nodes, agent);
  EXPECT_EQ(shape(nodes, view), "e1(e2(e3),e8)");  // the separator and the clickAncestor label are not actionable
  ASSERT_EQ(view.children.size(), 2U);
  ASSERT_EQ(view.children[0].children.size(), 1U);
  EXPECT_EQ(view.children[0].children[0].not_showing, 3U);  // New, Recent and a.txt: counted on File
  EXPECT_EQ(view.children[0].not_showing, 0U);
  EXPECT_EQ(view.children[1].not_showing, 0U);
  // Without the fold, -i lists them all.
  EXPECT_EQ(shape(nodes, make_view(nodes, view_options(true, true, std::nullopt))), "e1(e2(e3(e4,e6(e7))),e8)");
  EXPECT_FALSE(is_actionable(nodes[4]));
  EXPECT_FALSE(is_actionable(nodes[8]));
}

}  // namespace
}  // namespace companyos::a11y
