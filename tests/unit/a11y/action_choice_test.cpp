#include "a11y/act/action_choice.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

StateSet states(std::initializer_list<int> list) {
  StateSet set = 0;
  for (int state : list) set |= StateSet{1} << state;
  return set;
}

const StateSet kEnabled = states({ATSPI_STATE_ENABLED, ATSPI_STATE_SENSITIVE});

ElementFacts element(std::uint32_t role, std::vector<std::string> actions, StateSet extra = 0,
                     std::uint32_t interfaces = kInterfaceAction | kInterfaceComponent) {
  return ElementFacts{role, kEnabled | extra, interfaces, std::move(actions)};
}

constexpr ContainerFacts kNone{};

// A chosen DoAction: which name, or "" for ACTION_NOT_SUPPORTED.
struct NameCase {
  const char* what;
  ActionKind kind;
  ElementFacts facts;
  const char* chosen;
};

void expect_names(const std::vector<NameCase>& cases) {
  for (const NameCase& c : cases) {
    auto route = choose_route(c.kind, c.facts, kNone, kNone);
    if (std::string_view(c.chosen).empty()) {
      ASSERT_FALSE(route.ok()) << c.what << " chose " << route->action_name;
      EXPECT_EQ(route.error().code, ErrorCode::kActionNotSupported) << c.what;
      EXPECT_EQ(route.error().details["kind"], "no_semantic_route") << c.what;
      EXPECT_EQ(route.error().details["method"], method_name(c.kind)) << c.what;
      continue;
    }
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->route, Route::kDoAction) << c.what;
    EXPECT_EQ(route->action_name, c.chosen) << c.what;
    ASSERT_GE(route->action_index, 0) << c.what;
    EXPECT_EQ(c.facts.actions[static_cast<std::size_t>(route->action_index)], c.chosen) << c.what;
  }
}

TEST(ActionChoice, ClickPrefersClickThenPressActivateInvokeJump) {
  expect_names({
      {"GTK3 button", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"click", "press", "release"}), "click"},
      {"press before activate", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"activate", "press"}), "press"},
      {"not index 0", ActionKind::kClick, element(ATSPI_ROLE_TEXT, {"edit", "activate"}), "activate"},
      {"Qt case", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"SetFocus", "Press"}), "Press"},
      {"invoke", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"invoke"}), "invoke"},
      {"link", ActionKind::kClick, element(ATSPI_ROLE_LINK, {"jump"}), "jump"},
      {"combo", ActionKind::kClick, element(ATSPI_ROLE_COMBO_BOX, {"press"}), "press"},
      {"no click-like name", ActionKind::kClick, element(ATSPI_ROLE_TEXT, {"edit", "focus"}), ""},
      {"web check box: its check", ActionKind::kClick, element(ATSPI_ROLE_CHECK_BOX, {"check"}), "check"},
      {"web check box, checked: uncheck", ActionKind::kClick, element(ATSPI_ROLE_CHECK_BOX, {"uncheck"}), "uncheck"},
      {"Gecko radio button: select", ActionKind::kClick, element(ATSPI_ROLE_RADIO_BUTTON, {"select"}), "select"},
      {"not checkable: check is no click", ActionKind::kClick, element(ATSPI_ROLE_TEXT, {"check"}), ""},
      {"no actions", ActionKind::kClick, element(ATSPI_ROLE_LABEL, {}), ""},
      {"prefix is not a match", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"clicked", "pressing"}), ""},
      {"empty names", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"", ""}), ""},
  });
}

TEST(ActionChoice, ToggleOnlyCheckableElements) {
  expect_names({
      {"GTK3 check box", ActionKind::kToggle, element(ATSPI_ROLE_CHECK_BOX, {"click"}), "click"},
      {"toggle first", ActionKind::kToggle, element(ATSPI_ROLE_TOGGLE_BUTTON, {"press", "toggle"}), "toggle"},
      {"Qt", ActionKind::kToggle, element(ATSPI_ROLE_CHECK_BOX, {"Press", "Toggle"}), "Toggle"},
      {"radio", ActionKind::kToggle, element(ATSPI_ROLE_RADIO_BUTTON, {"click"}), "click"},
      {"check menu item", ActionKind::kToggle, element(ATSPI_ROLE_CHECK_MENU_ITEM, {"click"}), "click"},
      {"checkable state", ActionKind::kToggle,
       element(ATSPI_ROLE_PUSH_BUTTON, {"press"}, states({ATSPI_STATE_CHECKABLE})), "press"},
      {"plain button", ActionKind::kToggle, element(ATSPI_ROLE_PUSH_BUTTON, {"click"}), ""},
      {"check box without actions", ActionKind::kToggle, element(ATSPI_ROLE_CHECK_BOX, {"focus"}), ""},
      {"Gecko unchecked box", ActionKind::kToggle, element(ATSPI_ROLE_CHECK_BOX, {"check"}), "check"},
      {"Gecko checked box", ActionKind::kToggle, element(ATSPI_ROLE_CHECK_BOX, {"uncheck"}), "uncheck"},
      {"Gecko radio", ActionKind::kToggle, element(ATSPI_ROLE_RADIO_BUTTON, {"select"}), "select"},
      {"Gecko push button", ActionKind::kClick, element(ATSPI_ROLE_PUSH_BUTTON, {"press"}), "press"},
      {"Gecko combo box", ActionKind::kClick, element(ATSPI_ROLE_COMBO_BOX, {"open"}), "open"},
      {"Gecko tab", ActionKind::kClick, element(ATSPI_ROLE_PAGE_TAB, {"switch"}), "switch"},
      {"Gecko label", ActionKind::kClick, element(ATSPI_ROLE_LABEL, {"clickAncestor"}), "clickAncestor"},
      {"click before clickAncestor", ActionKind::kClick,
       element(ATSPI_ROLE_LABEL, {"clickAncestor", "click"}), "click"},
  });
  auto route = choose_route(ActionKind::kToggle, element(ATSPI_ROLE_CHECK_BOX, {"click"}), kNone, kNone);
  ASSERT_TRUE(route.ok());
  EXPECT_TRUE(route->toggles);
}

TEST(ActionChoice, ExpandAndCollapseByNameAndState) {
  const StateSet expandable = states({ATSPI_STATE_EXPANDABLE});
  const StateSet expanded = states({ATSPI_STATE_EXPANDABLE, ATSPI_STATE_EXPANDED});
  const std::vector<std::string> gtk3_cell = {"expand or contract", "edit", "activate"};
  struct Case {
    const char* what;
    ActionKind kind;
    ElementFacts facts;
    Route route;
    const char* name;  // for kDoAction; "" = ACTION_NOT_SUPPORTED when route is kDoAction
    bool toggles;
  };
  const Case cases[] = {
      {"GTK3 collapsed row", ActionKind::kExpand, element(ATSPI_ROLE_TABLE_CELL, gtk3_cell, expandable),
       Route::kDoAction, "expand or contract", true},
      {"GTK3 expanded row", ActionKind::kExpand, element(ATSPI_ROLE_TABLE_CELL, gtk3_cell, expanded),
       Route::kAlreadyInState, "", false},
      {"GTK3 collapse expanded", ActionKind::kCollapse, element(ATSPI_ROLE_TABLE_CELL, gtk3_cell, expanded),
       Route::kDoAction, "expand or contract", true},
      {"GTK3 collapse collapsed", ActionKind::kCollapse,
       element(ATSPI_ROLE_TABLE_CELL, gtk3_cell, expandable), Route::kAlreadyInState, "", false},
      {"dedicated expand", ActionKind::kExpand,
       element(ATSPI_ROLE_TREE_ITEM, {"toggle", "expand", "collapse"}, expandable), Route::kDoAction,
       "expand", false},
      {"dedicated collapse", ActionKind::kCollapse,
       element(ATSPI_ROLE_TREE_ITEM, {"toggle", "expand", "collapse"}, expanded), Route::kDoAction,
       "collapse", false},
      {"toggle name", ActionKind::kExpand, element(ATSPI_ROLE_TREE_ITEM, {"Toggle"}, expandable),
       Route::kDoAction, "Toggle", true},
      {"dedicated without state", ActionKind::kExpand, element(ATSPI_ROLE_PUSH_BUTTON, {"expand"}),
       Route::kDoAction, "expand", false},
      {"toggle without state", ActionKind::kExpand, element(ATSPI_ROLE_TREE_ITEM, {"toggle"}),
       Route::kDoAction, "", false},
      {"not expandable", ActionKind::kCollapse, element(ATSPI_ROLE_PUSH_BUTTON, {"click"}),
       Route::kDoAction, "", false},
      {"expandable without actions", ActionKind::kExpand, element(ATSPI_ROLE_TREE_ITEM, {"edit"}, expandable),
       Route::kDoAction, "", false},
  };
  for (const Case& c : cases) {
    auto route = choose_route(c.kind, c.facts, kNone, kNone);
    if (c.route == Route::kDoAction && std::string_view(c.name).empty()) {
      ASSERT_FALSE(route.ok()) << c.what;
      EXPECT_EQ(route.error().code, ErrorCode::kActionNotSupported) << c.what;
      continue;
    }
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->route, c.route) << c.what;
    EXPECT_EQ(route->action_name, c.name) << c.what;
    EXPECT_EQ(route->toggles, c.toggles) << c.what;
  }
}

TEST(ActionChoice, SelectUsesTheContainersSelection) {
  const ContainerFacts list{true, ATSPI_ROLE_LIST, kInterfaceSelection | kInterfaceComponent};
  const ContainerFacts tree{true, ATSPI_ROLE_TREE_TABLE, kInterfaceSelection};
  const ContainerFacts menu{true, ATSPI_ROLE_MENU, kInterfaceSelection};
  const ContainerFacts menu_bar{true, ATSPI_ROLE_MENU_BAR, kInterfaceSelection};
  const ContainerFacts combo{true, ATSPI_ROLE_COMBO_BOX, kInterfaceSelection | kInterfaceAction};
  const ContainerFacts combo_without_selection{true, ATSPI_ROLE_COMBO_BOX, kInterfaceAction};
  const ContainerFacts panel{true, ATSPI_ROLE_PANEL, kInterfaceComponent};
  const ElementFacts item = element(ATSPI_ROLE_LIST_ITEM, {});
  const ElementFacts menu_item = element(ATSPI_ROLE_MENU_ITEM, {"click"});
  const ElementFacts gecko_option = element(ATSPI_ROLE_LIST_ITEM, {"select"});
  const StateSet selectable = StateSet{1} << ATSPI_STATE_SELECTABLE;
  const ElementFacts qt_item = element(ATSPI_ROLE_LIST_ITEM, {"Toggle"}, selectable);
  const ElementFacts qt_selected =
      element(ATSPI_ROLE_LIST_ITEM, {"Toggle"}, selectable | (StateSet{1} << ATSPI_STATE_SELECTED));
  struct Case {
    const char* what;
    ElementFacts facts;
    ContainerFacts parent;
    ContainerFacts grandparent;
    std::optional<Route> route;  // nullopt: ACTION_NOT_SUPPORTED
  };
  const Case cases[] = {
      {"list item", item, list, panel, Route::kSelectInParent},
      {"tree row cell", element(ATSPI_ROLE_TABLE_CELL, {"expand or contract"}), tree, panel,
       Route::kSelectInParent},
      {"combo item via the combo", menu_item, menu, combo, Route::kSelectInGrandparent},
      {"menu highlight is not a selection", menu_item, menu, panel, std::nullopt},
      {"menu bar", menu_item, menu_bar, panel, std::nullopt},
      {"combo without Selection", menu_item, menu, combo_without_selection, std::nullopt},
      {"own select action", gecko_option, panel, kNone, Route::kDoAction},
      {"parent without Selection", item, panel, kNone, std::nullopt},
      {"no parent", item, kNone, kNone, std::nullopt},
      {"Qt item: its Toggle selects it", qt_item, panel, kNone, Route::kDoAction},
      {"Qt item selected already: not flipped back", qt_selected, panel, kNone, Route::kAlreadyInState},
      {"a Toggle on an item that is not selectable", element(ATSPI_ROLE_LIST_ITEM, {"Toggle"}), panel, kNone,
       std::nullopt},
  };
  for (const Case& c : cases) {
    auto route = choose_route(ActionKind::kSelect, c.facts, c.parent, c.grandparent);
    if (!c.route) {
      ASSERT_FALSE(route.ok()) << c.what;
      EXPECT_EQ(route.error().code, ErrorCode::kActionNotSupported) << c.what;
      continue;
    }
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->route, *c.route) << c.what;
  }
}

TEST(ActionChoice, InterfaceRoutes) {
  const StateSet editable = states({ATSPI_STATE_EDITABLE, ATSPI_STATE_FOCUSABLE});
  const std::uint32_t text = kInterfaceText | kInterfaceEditableText | kInterfaceComponent;
  const std::uint32_t spin = text | kInterfaceValue;
  struct Case {
    const char* what;
    ActionKind kind;
    ElementFacts facts;
    std::optional<Route> route;
  };
  const Case cases[] = {
      {"entry set-value", ActionKind::kSetValue, element(ATSPI_ROLE_TEXT, {"activate"}, editable, text),
       Route::kSetText},
      {"spin button takes a number", ActionKind::kSetValue,
       element(ATSPI_ROLE_SPIN_BUTTON, {"activate"}, editable, spin), Route::kSetNumber},
      {"slider", ActionKind::kSetValue, element(ATSPI_ROLE_SLIDER, {}, 0, kInterfaceValue),
       Route::kSetNumber},
      {"progress bar is read-only", ActionKind::kSetValue,
       element(ATSPI_ROLE_PROGRESS_BAR, {}, 0, kInterfaceValue), std::nullopt},
      {"read-only text", ActionKind::kSetValue, element(ATSPI_ROLE_TEXT, {}, 0, text), std::nullopt},
      {"label", ActionKind::kSetValue, element(ATSPI_ROLE_LABEL, {}, 0, kInterfaceText), std::nullopt},
      {"password set-value", ActionKind::kSetValue,
       element(ATSPI_ROLE_PASSWORD_TEXT, {"activate"}, editable, text), Route::kSetText},
      {"entry type", ActionKind::kType, element(ATSPI_ROLE_TEXT, {}, editable, text), Route::kInsertText},
      {"spin type", ActionKind::kType, element(ATSPI_ROLE_SPIN_BUTTON, {}, editable, spin),
       Route::kInsertText},
      {"slider type", ActionKind::kType, element(ATSPI_ROLE_SLIDER, {}, 0, kInterfaceValue), std::nullopt},
      {"focus", ActionKind::kFocus,
       element(ATSPI_ROLE_CHECK_BOX, {"click"}, states({ATSPI_STATE_FOCUSABLE})), Route::kGrabFocus},
      {"focus unfocusable", ActionKind::kFocus, element(ATSPI_ROLE_LABEL, {}), std::nullopt},
      // LibreOffice Calc's cell: Text and Value, no EditableText.
      {"a spreadsheet's cell takes text through its input line", ActionKind::kSetValue,
       element(ATSPI_ROLE_TABLE_CELL, {}, editable, kInterfaceText | kInterfaceValue | kInterfaceComponent),
       Route::kCellEntry},
      {"an editable cell with EditableText is set as text", ActionKind::kSetValue,
       element(ATSPI_ROLE_TABLE_CELL, {}, editable, text), Route::kSetText},
      {"a read-only cell with a Value keeps the number route", ActionKind::kSetValue,
       element(ATSPI_ROLE_TABLE_CELL, {}, 0, kInterfaceText | kInterfaceValue), Route::kSetNumber},
      {"a spreadsheet's cell is not typed into", ActionKind::kType,
       element(ATSPI_ROLE_TABLE_CELL, {}, editable, kInterfaceText | kInterfaceValue | kInterfaceComponent),
       std::nullopt},
      {"focus without Component", ActionKind::kFocus,
       element(ATSPI_ROLE_MENU_ITEM, {"click"}, states({ATSPI_STATE_FOCUSABLE}), kInterfaceAction),
       std::nullopt},
  };
  for (const Case& c : cases) {
    auto route = choose_route(c.kind, c.facts, kNone, kNone);
    if (!c.route) {
      ASSERT_FALSE(route.ok()) << c.what;
      EXPECT_EQ(route.error().code, ErrorCode::kActionNotSupported) << c.what;
      continue;
    }
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->route, *c.route) << c.what;
  }
}

// A spreadsheet's cell takes a plain number by its Value, anything else through its input line.
TEST(ActionChoice, ASpreadsheetCellsRouteDependsOnTheValueGiven) {
  const StateSet editable = states({ATSPI_STATE_EDITABLE, ATSPI_STATE_FOCUSABLE});
  const ElementFacts calc_cell =
      element(ATSPI_ROLE_TABLE_CELL, {}, editable, kInterfaceText | kInterfaceValue | kInterfaceComponent);
  const ElementFacts no_value = element(ATSPI_ROLE_TABLE_CELL, {}, editable, kInterfaceText | kInterfaceComponent);
  struct Case {
    const char* what;
    ElementFacts facts;
    const char* value;
    Route route;
  };
  const Case cases[] = {
      {"an integer", calc_cell, "42", Route::kCellNumber},
      {"a decimal", calc_cell, "-0.5", Route::kCellNumber},
      {"text", calc_cell, "apples", Route::kCellEntry},
      {"a formula", calc_cell, "=A1*2", Route::kCellEntry},
      {"a number spelled otherwise than shown", calc_cell, "1.50", Route::kCellEntry},
      {"a percentage", calc_cell, "5%", Route::kCellEntry},
      {"nothing", calc_cell, "", Route::kCellEntry},
      {"a number, and the cell has no Value", no_value, "42", Route::kCellEntry},
  };
  for (const Case& c : cases) {
    auto route = choose_route(ActionKind::kSetValue, c.facts, kNone, kNone, c.value);
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->route, c.route) << c.what;
    EXPECT_EQ(route_name(*route), c.route == Route::kCellNumber ? "Value.CurrentValue" : "input_line") << c.what;
  }
}

// Gecko answers Selection.SelectChild and EditableText and leaves the page as it was.
TEST(ActionChoice, RoutesTheToolkitIgnoresAreNeverChosen) {
  const RouteRules gecko{.container_selection = false, .editable_text = false};
  const ContainerFacts list{true, ATSPI_ROLE_LIST_BOX, kInterfaceSelection};
  const ContainerFacts menu{true, ATSPI_ROLE_MENU, kInterfaceSelection};
  const ContainerFacts combo{true, ATSPI_ROLE_COMBO_BOX, kInterfaceSelection | kInterfaceAction};
  const StateSet editable = states({ATSPI_STATE_EDITABLE, ATSPI_STATE_FOCUSABLE});
  const std::uint32_t text = kInterfaceText | kInterfaceEditableText | kInterfaceComponent;
  struct Case {
    const char* what;
    ActionKind kind;
    ElementFacts facts;
    ContainerFacts parent;
    ContainerFacts grandparent;
    std::optional<Route> route;  // nullopt: ACTION_NOT_SUPPORTED
    const char* refusal;         // details.kind of the refusal
  };
  const Case cases[] = {
      {"list item: its own select", ActionKind::kSelect, element(ATSPI_ROLE_LIST_ITEM, {"select"}), list,
       kNone, Route::kDoAction, ""},
      {"a <select>'s own option: refused, its list's copy picks", ActionKind::kSelect,
       element(ATSPI_ROLE_MENU_ITEM, {"select"}), menu, combo, std::nullopt, "option_needs_open_list"},
      {"an option of a plain menu with select", ActionKind::kSelect,
       element(ATSPI_ROLE_MENU_ITEM, {"select"}), menu, kNone, Route::kDoAction, ""},
      {"option in an open <select>'s list: its click", ActionKind::kSelect,
       element(ATSPI_ROLE_MENU_ITEM, {"click"}), menu, combo, Route::kDoAction, ""},
      {"a plain menu's item is not selected by its click", ActionKind::kSelect,
       element(ATSPI_ROLE_MENU_ITEM, {"click"}), menu, kNone, std::nullopt, "no_semantic_route"},
      {"no own select: refused, not the Selection", ActionKind::kSelect,
       element(ATSPI_ROLE_LIST_ITEM, {}), list, kNone, std::nullopt, "no_semantic_route"},
      {"entry set-value refused", ActionKind::kSetValue, element(ATSPI_ROLE_ENTRY, {}, editable, text),
       kNone, kNone, std::nullopt, "toolkit_ignores_editable_text"},
      {"entry type refused", ActionKind::kType, element(ATSPI_ROLE_ENTRY, {}, editable, text), kNone,
       kNone, std::nullopt, "toolkit_ignores_editable_text"},
      {"a number still goes through Value", ActionKind::kSetValue,
       element(ATSPI_ROLE_SPIN_BUTTON, {}, editable, text | kInterfaceValue), kNone, kNone,
       Route::kSetNumber, ""},
      {"read-only text: no route at all", ActionKind::kSetValue, element(ATSPI_ROLE_ENTRY, {}, 0, text),
       kNone, kNone, std::nullopt, "no_semantic_route"},
      {"editable without EditableText (Chromium)", ActionKind::kSetValue,
       element(ATSPI_ROLE_ENTRY, {"activate"}, editable, kInterfaceText | kInterfaceComponent), kNone, kNone,
       std::nullopt, "no_editable_text"},
      {"type: editable without EditableText", ActionKind::kType,
       element(ATSPI_ROLE_ENTRY, {"activate"}, editable, kInterfaceText | kInterfaceComponent), kNone, kNone,
       std::nullopt, "no_editable_text"},
  };
  for (const Case& c : cases) {
    auto route = choose_route(c.kind, c.facts, c.parent, c.grandparent, {}, gecko);
    if (!c.route) {
      ASSERT_FALSE(route.ok()) << c.what;
      EXPECT_EQ(route.error().code, ErrorCode::kActionNotSupported) << c.what;
      EXPECT_EQ(route.error().details["kind"], c.refusal) << c.what;
      continue;
    }
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->route, *c.route) << c.what;
    EXPECT_EQ(route->picks_from_list, std::string_view(c.what).starts_with("option in an open")) << c.what;
  }
}

TEST(ActionChoice, NamedActionsExactThenUniqueIgnoringCase) {
  const ElementFacts cell = element(ATSPI_ROLE_TABLE_CELL, {"expand or contract", "edit", "activate"});
  const ElementFacts odd = element(ATSPI_ROLE_PUSH_BUTTON, {"Open", "open", "close"});
  struct Case {
    const char* what;
    ElementFacts facts;
    const char* requested;
    int index;  // -1: ACTION_NOT_SUPPORTED
  };
  const Case cases[] = {
      {"exact", cell, "edit", 1},
      {"exact with spaces", cell, "expand or contract", 0},
      {"case-insensitive", cell, "ACTIVATE", 2},
      {"exact wins over case", odd, "open", 1},
      {"ambiguous ignoring case", odd, "OPEN", -1},
      {"unknown", cell, "click", -1},
      {"no partial match", cell, "expand", -1},
  };
  for (const Case& c : cases) {
    auto route = choose_route(ActionKind::kNamed, c.facts, kNone, kNone, c.requested);
    if (c.index < 0) {
      ASSERT_FALSE(route.ok()) << c.what;
      EXPECT_EQ(route.error().code, ErrorCode::kActionNotSupported) << c.what;
      EXPECT_EQ(route.error().details["available_actions"].size(), c.facts.actions.size()) << c.what;
      continue;
    }
    ASSERT_TRUE(route.ok()) << c.what << ": " << route.error().message;
    EXPECT_EQ(route->action_index, c.index) << c.what;
  }
  auto none = choose_route(ActionKind::kNamed, cell, kNone, kNone, "");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::kInvalidArgs);
}

TEST(ActionChoice, RouteNames) {
  EXPECT_EQ(route_name({Route::kDoAction, 0, "click", false}), "action:click");
  EXPECT_EQ(route_name({Route::kSelectInGrandparent, -1, "", false}), "Selection.SelectChild");
  EXPECT_EQ(route_name({Route::kSetNumber, -1, "", false}), "Value.CurrentValue");
  EXPECT_EQ(route_name({Route::kInsertText, -1, "", false}), "EditableText.InsertText");
}

// The refusals after which the daemon's keyboard may type instead (physical input on), and
// no others: a refusal for any other reason must stay a refusal.
TEST(ActionChoice, OnlyTheKeyboardCanAfterTheEditableTextRefusalsAlone) {
  const ElementFacts entry{ATSPI_ROLE_ENTRY, states({ATSPI_STATE_EDITABLE, ATSPI_STATE_FOCUSABLE}),
                           kInterfaceText | kInterfaceEditableText, {}};
  const ElementFacts web_input{ATSPI_ROLE_ENTRY, states({ATSPI_STATE_EDITABLE}), kInterfaceText, {}};
  const ElementFacts label{ATSPI_ROLE_LABEL, 0, kInterfaceText, {}};
  const RouteRules gecko{.container_selection = false, .editable_text = false};
  const RouteRules gtk{};
  struct Case {
    const char* what;
    ElementFacts element;
    RouteRules rules;
    bool keyboard;
  };
  const Case cases[] = {
      {"Gecko ignores EditableText", entry, gecko, true},
      {"Chromium's input has none", web_input, gtk, true},
      {"a label is not editable at all", label, gtk, false},
  };
  for (const Case& c : cases) {
    auto route = choose_route(ActionKind::kSetValue, c.element, {}, {}, "x", c.rules);
    ASSERT_FALSE(route) << c.what;
    EXPECT_EQ(only_the_keyboard_can(route.error()), c.keyboard) << c.what << ": " << route.error().message;
  }
  EXPECT_FALSE(only_the_keyboard_can(make_error(ErrorCode::kPolicyDenied, "no", {{"kind", "password"}})));
  EXPECT_FALSE(only_the_keyboard_can(make_error(ErrorCode::kInternal, "odd")));
}

}  // namespace
}  // namespace companyos::a11y
