// Chooses how a semantic action reaches an element: by action NAME (never by index 0,
// which is not always the click), or through an interface. Pure: works on what a live
// read found. No fitting route → ACTION_NOT_SUPPORTED listing the element's actions;
// physical input is never a fallback.
//
// Names match case-insensitively (ASCII), and the first preference the element lists wins:
//   click     click, press, activate, invoke, jump, open, switch, clickAncestor; on a
//             checkable element with none of those, its toggle's names (a web check box's
//             check or uncheck, Gecko's radio button's select)
//   toggle    (checkable: check box, toggle button, radio button, check/radio menu item,
//             or the checkable state) toggle, check, uncheck, click, press, activate,
//             select
//   expand    (expandable state, or an "expand" action) expand; toggling names — "expand or
//             contract", "expand or collapse", "toggle" — only when the state says
//             collapsed; already expanded → kAlreadyInState
//   collapse  the same with collapse, and "not expanded" as the done state
//   select    (unless RouteRules::container_selection is off) the parent's Selection (SelectChild of the element's index) unless the parent
//             is a menu, menu bar or popup menu (their Selection only highlights); an item
//             of a combo box's menu goes through the combo box's Selection; else the
//             element's own "select" action; without container selection (Gecko), an
//             item of a combo box's menu that lists no "select" takes its click (the
//             option in an open <select>'s list), and one that lists "select" (the
//             <select>'s own option, which ignores it) is refused: option_needs_open_list
//   focus     Component.GrabFocus on a focusable Component
//   set-value an editable table cell with Text but no EditableText (LibreOffice Calc's):
//             entered through its window's input line (act/cell_entry.h); else
//             Value (CurrentValue) where the element has Value and is not a progress or
//             level bar; else EditableText.SetTextContents on editable text (editable
//             text without the interface, as Chromium's web inputs: refused, kind
//             "no_editable_text", pointing to --headed)
//   type      EditableText.InsertText at the caret, on editable text
//   action    the named action: exact name first, else the only case-insensitive match
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "a11y/act/action_kind.h"
#include "a11y/vocabulary.h"
#include "companyos/result.h"

namespace companyos::a11y {

struct ElementFacts {
  std::uint32_t role = 0;
  StateSet states = 0;
  std::uint32_t interfaces = 0;
  std::vector<std::string> actions;  // stable names (Action.GetName), in index order
};

// The element's parent or grandparent; present=false when there is none.
struct ContainerFacts {
  bool present = false;
  std::uint32_t role = 0;
  std::uint32_t interfaces = 0;
};

enum class Route {
  kDoAction,                  // Action.DoAction(action_index)
  kSelectInParent,            // parent's Selection.SelectChild(index in parent)
  kSelectInGrandparent,       // grandparent's Selection.SelectChild(index in parent)
  kGrabFocus,                 // Component.GrabFocus
  kSetText,                   // EditableText.SetTextContents
  kSetNumber,                 // Value.CurrentValue
  kInsertText,                // EditableText.InsertText at Text.CaretOffset
  kAlreadyInState,            // nothing to send: expand/collapse found it done already
  kKeyboard,                  // Component.GrabFocus, then keys through the caller's keyboard
  kCellEntry,                 // a spreadsheet's cell: its window's input line (act/cell_entry.h)
  kCellNumber,                // a spreadsheet's cell given a plain number: its Value (act/cell_entry.h)
};

struct ChosenRoute {
  Route route = Route::kDoAction;
  int action_index = -1;  // kDoAction: index of action_name in ElementFacts::actions
  std::string action_name;
  bool toggles = false;   // the action flips a state rather than setting it
  // The element is a copy in an open list that closes once it is picked (Gecko's
  // <select>): its effect is read on the one element with its identity left afterwards.
  bool picks_from_list = false;
  friend bool operator==(const ChosenRoute&, const ChosenRoute&) = default;
};

// What the app's toolkit honours (toolkit/traits.h): a route it answers but ignores is
// never chosen.
struct RouteRules {
  // Without it, select takes the element's own "select" action instead of its
  // container's Selection.
  bool container_selection = true;
  // Without it, set-value and type on editable text are refused (kind
  // "toolkit_ignores_editable_text"); typing through the keyboard is the caller's route.
  bool editable_text = true;
};

// argument: the request's — the action's name for ActionKind::kNamed, the value for
// kSetValue (a spreadsheet's cell takes a plain number by its Value), ignored otherwise.
Result<ChosenRoute> choose_route(ActionKind kind, const ElementFacts& element,
                                 const ContainerFacts& parent, const ContainerFacts& grandparent,
                                 std::string_view argument = {}, const RouteRules& rules = {});

// set-value and type through the keyboard: the element must show editable, focusable text
// (Text and Component; EditableText is not needed — Chromium's web inputs lack it), else
// ACTION_NOT_SUPPORTED. A line break or tab for an element that is not multi-line is
// INVALID_ARGS: typed, it would press Enter (submitting a form) or move the focus.
// Whether a refusal of choose_route says only the keyboard can change the element's text
// (toolkit_ignores_editable_text, no_editable_text).
bool only_the_keyboard_can(const Error& refusal);

Result<ChosenRoute> choose_keyboard_route(ActionKind kind, const ElementFacts& element,
                                          std::string_view text);

// A short name of the route for replies, e.g. "action:click", "Selection.SelectChild".
std::string route_name(const ChosenRoute& route);

bool is_checkable(std::uint32_t role, StateSet states);

}  // namespace companyos::a11y
