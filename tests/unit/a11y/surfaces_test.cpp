#include "a11y/surfaces.h"

#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

using testing::make_nodes;
using testing::snapshot_of;

constexpr auto kShowing = ATSPI_STATE_SHOWING;

// "kind@node<opener:items" for each surface found, joined by spaces.
std::string found(const Snapshot& snapshot) {
  std::string text;
  for (const Surface& s : open_surfaces(snapshot)) {
    if (!text.empty()) text += " ";
    text += std::string(to_string(s.kind)) + "@" + std::to_string(s.node) + "<" + std::to_string(s.opener) + ":" +
            std::to_string(s.items);
  }
  return text;
}

// The snapshot with its node `index` at `bounds`.
Snapshot with_bounds(Snapshot snapshot, std::size_t index, Bounds bounds) {
  snapshot.nodes.at(index).bounds = bounds;
  return snapshot;
}

Snapshot qt_combo_box_list() {
  return snapshot_of(make_nodes({{-1, ATSPI_ROLE_DIALOG, "Preferences", {}, {kShowing}},
                                 {0, ATSPI_ROLE_COMBO_BOX, "North", {"ShowMenu", "Press"}, {kShowing}},
                                 {1, ATSPI_ROLE_LIST, "", {}, {kShowing}},
                                 {2, ATSPI_ROLE_LIST_ITEM, "North", {"Toggle"}, {kShowing}},
                                 {2, ATSPI_ROLE_LIST_ITEM, "West", {"Toggle"}, {kShowing}}}));
}

TEST(Surfaces, FoundByOneRuleAcrossToolkits) {
  struct Case {
    const char* what;
    Snapshot snapshot;
    std::string expected;
  };
  const Case cases[] = {
      {"GTK 3: a closed menu-bar menu shows, its items do not",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Editor", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU_BAR, "", {}, {kShowing}},
                               {1, ATSPI_ROLE_MENU, "File", {"click"}, {kShowing}},
                               {2, ATSPI_ROLE_MENU_ITEM, "New", {"click"}}})),
       ""},
      {"GTK 3: the open menu is its own entry",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Editor", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU_BAR, "", {}, {kShowing}},
                               {1, ATSPI_ROLE_MENU, "File", {"click"}, {kShowing}},
                               {2, ATSPI_ROLE_MENU_ITEM, "New", {"click"}, {kShowing}},
                               {2, ATSPI_ROLE_MENU, "Recent", {"click"}, {kShowing}},
                               {4, ATSPI_ROLE_MENU_ITEM, "a.txt", {"click"}}})),
       "menu@2<2:2"},
      {"GTK 3: an open submenu (selected) follows its menu",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Editor", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU, "File", {"click"}, {kShowing}},
                               {1, ATSPI_ROLE_MENU, "Recent", {"click"}, {kShowing, ATSPI_STATE_SELECTED}},
                               {2, ATSPI_ROLE_MENU_ITEM, "a.txt", {"click"}, {kShowing}}})),
       "menu@1<1:1 menu@2<2:1"},
      {"GTK 3: a closed submenu inside an open menu shows, its items do not",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Writer", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU, "File", {"click"}, {kShowing, ATSPI_STATE_SELECTED}},
                               {1, ATSPI_ROLE_MENU, "Recent", {"click"}, {kShowing}},
                               {2, ATSPI_ROLE_MENU_ITEM, "a.txt", {"click"}}})),
       "menu@1<1:1"},
      {"Qt: a popup menu under its menu item, hidden then shown",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Pad", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU_ITEM, "File", {"ShowMenu"}, {kShowing}},
                               {1, ATSPI_ROLE_POPUP_MENU, ""},
                               {2, ATSPI_ROLE_MENU_ITEM, "Save", {"Press"}},
                               {0, ATSPI_ROLE_MENU_ITEM, "Edit", {"ShowMenu"}, {kShowing}},
                               {4, ATSPI_ROLE_POPUP_MENU, "", {}, {kShowing}},
                               {5, ATSPI_ROLE_MENU_ITEM, "Undo", {"Press"}, {kShowing}}})),
       "menu@5<4:1"},
      {"Gecko: a closed <select> shows its selected option; the expanded copy is the surface",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Page", {}, {kShowing}},
                               {0, ATSPI_ROLE_COMBO_BOX, "", {"close"},
                                {kShowing, ATSPI_STATE_EXPANDABLE, ATSPI_STATE_EXPANDED}},
                               {1, ATSPI_ROLE_MENU, "Red", {"click"}, {kShowing}},
                               {2, ATSPI_ROLE_MENU_ITEM, "Red", {"click"}, {kShowing}},
                               {2, ATSPI_ROLE_MENU_ITEM, "Green", {"click"}, {kShowing}},
                               {0, ATSPI_ROLE_COMBO_BOX, "Colour", {"open"}, {kShowing, ATSPI_STATE_EXPANDABLE}},
                               {5, ATSPI_ROLE_MENU, "", {"click"}, {kShowing}},
                               {6, ATSPI_ROLE_MENU_ITEM, "Red", {"select"}, {kShowing}},
                               {6, ATSPI_ROLE_MENU_ITEM, "Green", {"select"}}})),
       "menu@2<1:2"},
      {"Gecko: a menu bar menu open (expanded), and closed again with its items still showing",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Firefox", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU_BAR, "", {}, {kShowing}},
                               {1, ATSPI_ROLE_MENU, "File", {"click"},
                                {kShowing, ATSPI_STATE_EXPANDABLE, ATSPI_STATE_EXPANDED}},
                               {2, ATSPI_ROLE_MENU_ITEM, "New Tab", {"click"}, {kShowing}},
                               {1, ATSPI_ROLE_MENU, "Edit", {"click"}, {kShowing, ATSPI_STATE_EXPANDABLE}},
                               {4, ATSPI_ROLE_MENU_ITEM, "Undo", {"click"}, {kShowing}}})),
       "menu@2<2:1"},
      {"a combo box's list that says nothing of expansion counts by its items",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Form", {}, {kShowing}},
                               {0, ATSPI_ROLE_COMBO_BOX, "Size", {"press"}, {kShowing}},
                               {1, ATSPI_ROLE_LIST_BOX, "", {}, {kShowing}},
                               {2, ATSPI_ROLE_LIST_ITEM, "Large", {}, {kShowing}}})),
       "list@2<1:1"},
      {"Qt: a closed combo box's list shows, with its items, at no size",
       with_bounds(qt_combo_box_list(), 2, Bounds{0, 0, 0, 0}), ""},
      {"Qt: the open combo box's list has the popup's size",
       with_bounds(qt_combo_box_list(), 2, Bounds{531, 696, 66, 100}), "list@2<1:2"},
      {"a combo box's list of no known size counts by its items", qt_combo_box_list(), "list@2<1:2"},
      {"a list not under a combo box is content, not a surface",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Form", {}, {kShowing}},
                               {0, ATSPI_ROLE_LIST_BOX, "", {}, {kShowing}},
                               {1, ATSPI_ROLE_LIST_ITEM, "Large", {}, {kShowing}}})),
       ""},
      {"a showing tooltip has no items",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Form", {}, {kShowing}},
                               {0, ATSPI_ROLE_TOOL_TIP, "Saves the file", {}, {kShowing}},
                               {0, ATSPI_ROLE_TOOL_TIP, "hidden"}})),
       "tooltip@1<0:0"},
      {"a top-level popup menu is a surface with no opener",
       snapshot_of(make_nodes({{-1, ATSPI_ROLE_POPUP_MENU, "", {}, {kShowing}},
                               {0, ATSPI_ROLE_MENU_ITEM, "Copy", {"click"}, {kShowing}}})),
       "menu@0<-1:1"},
      {"a hidden menu is none", snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Editor", {}, {kShowing}},
                                                       {0, ATSPI_ROLE_MENU, "File"},
                                                       {1, ATSPI_ROLE_MENU_ITEM, "New", {}, {kShowing}}})),
       ""},
      {"an empty snapshot has none", snapshot_of({}), ""},
  };
  for (const Case& c : cases) EXPECT_EQ(found(c.snapshot), c.expected) << c.what;
}

TEST(Surfaces, KindNamesRoundTrip) {
  for (auto kind : {SurfaceKind::kMenu, SurfaceKind::kList, SurfaceKind::kTooltip}) {
    EXPECT_EQ(surface_kind_from(to_string(kind)), kind);
  }
  EXPECT_FALSE(surface_kind_from("any"));
  EXPECT_FALSE(surface_kind_from("Menu"));
  EXPECT_FALSE(surface_kind_from(""));
}

}  // namespace
}  // namespace companyos::a11y
