#include "a11y/act/action_choice.h"

#include <initializer_list>

#include <atspi/atspi.h>

#include "a11y/act/cell_entry.h"
#include "core/text.h"

namespace companyos::a11y {
namespace {

// Gecko names a combo box's click "open", a tab's "switch", and a node that forwards the
// click to its ancestor (a <select>'s list, a label's text) "clickAncestor".
const std::initializer_list<std::string_view> kClickNames = {
    "click", "press", "activate", "invoke", "jump", "open", "switch", "clickAncestor"};
// Gecko lists "check" on an unchecked box and "uncheck" on a checked one, and "select" on
// a radio button.
const std::initializer_list<std::string_view> kToggleNames = {
    "toggle", "check", "uncheck", "click", "press", "activate", "select"};
const std::initializer_list<std::string_view> kFlipExpansionNames = {
    "expand or contract", "expand or collapse", "toggle"};

// Index of the first preference the element lists, or -1.
int find_preferred(const std::vector<std::string>& actions,
                   std::initializer_list<std::string_view> preferences,
                   std::string_view* chosen = nullptr) {
  for (std::string_view preference : preferences) {
    for (std::size_t i = 0; i < actions.size(); ++i) {
      if (equals_ignoring_ascii_case(actions[i], preference)) {
        if (chosen != nullptr) *chosen = preference;
        return static_cast<int>(i);
      }
    }
  }
  return -1;
}

ChosenRoute do_action(const ElementFacts& element, int index, bool toggles = false) {
  return ChosenRoute{Route::kDoAction, index, element.actions[static_cast<std::size_t>(index)],
                     toggles};
}

ChosenRoute via(Route route) { return ChosenRoute{route, -1, {}, false}; }

Error unsupported(ActionKind kind, const ElementFacts& element, std::string reason) {
  // A name a toolkit leaves empty names nothing that could be asked for.
  std::vector<std::string> available;
  for (const std::string& name : element.actions) {
    if (!name.empty()) available.push_back(name);
  }
  return make_error(ErrorCode::kActionNotSupported,
                    "the element offers no way to " + std::string(method_name(kind)) + ": " + reason,
                    {{"kind", "no_semantic_route"},
                     {"method", std::string(method_name(kind))},
                     {"reason", reason},
                     {"role", role_name(element.role)},
                     {"available_actions", available}},
                    available.empty()
                        ? "pick an element that offers this action"
                        : "use one of the available actions with the action method");
}

bool is_menu_like(std::uint32_t role) {
  return role == ATSPI_ROLE_MENU || role == ATSPI_ROLE_MENU_BAR || role == ATSPI_ROLE_POPUP_MENU;
}

Result<ChosenRoute> choose_expansion(ActionKind kind, const ElementFacts& element) {
  const bool expand = kind == ActionKind::kExpand;
  const bool expandable = has_state(element.states, ATSPI_STATE_EXPANDABLE);
  const bool expanded = has_state(element.states, ATSPI_STATE_EXPANDED);
  const int dedicated = find_preferred(element.actions, {expand ? "expand" : "collapse"});
  if (!expandable && dedicated < 0) {
    return unsupported(kind, element, "it is not expandable");
  }
  if (expandable && expanded == expand) return via(Route::kAlreadyInState);
  if (dedicated >= 0) return do_action(element, dedicated);
  const int flip = find_preferred(element.actions, kFlipExpansionNames);
  if (flip >= 0) return do_action(element, flip, true);
  return unsupported(kind, element, "it lists no expand or collapse action");
}

Result<ChosenRoute> choose_select(const ElementFacts& element, const ContainerFacts& parent,
                                  const ContainerFacts& grandparent, bool container_selection) {
  const bool parent_selects =
      container_selection && parent.present && (parent.interfaces & kInterfaceSelection);
  if (parent_selects && !is_menu_like(parent.role)) return via(Route::kSelectInParent);
  if (container_selection && parent.present && is_menu_like(parent.role) && grandparent.present &&
      grandparent.role == ATSPI_ROLE_COMBO_BOX && (grandparent.interfaces & kInterfaceSelection)) {
    return via(Route::kSelectInGrandparent);
  }
  const int own = find_preferred(element.actions, {"select"});
  const bool option_of_combo = parent.present && is_menu_like(parent.role) && grandparent.present &&
                               grandparent.role == ATSPI_ROLE_COMBO_BOX;
  if (own >= 0 && option_of_combo && !container_selection) {
    // Gecko: a <select>'s own options answer their "select" and change nothing, open or
    // closed (measured); only the copies in its open list pick one.
    return make_error(ErrorCode::kActionNotSupported,
                      "the app ignores a select of this option; its open list's copy picks it",
                      {{"kind", "option_needs_open_list"}, {"method", "select"}},
                      "click the combo box to open its list, take a snapshot, and select the "
                      "option in that list (--within the list: the copy is a twin of this one)");
  }
  if (own >= 0) return do_action(element, own);
  // Gecko copies an open <select>'s options into a list of its own (combo box > menu >
  // menu item) whose items pick the option by their click.
  if (!container_selection && option_of_combo) {
    const int click = find_preferred(element.actions, kClickNames);
    if (click >= 0) {
      ChosenRoute route = do_action(element, click);
      route.picks_from_list = true;
      return route;
    }
  }
  // Qt's item views have no Selection and flip an item's selection with its "Toggle"
  // (Tetzle's tag list, measured): a selectable item not selected yet is selected by it,
  // and one selected already is left alone, never flipped back.
  const int flip = find_preferred(element.actions, {"toggle"});
  if (flip >= 0 && has_state(element.states, ATSPI_STATE_SELECTABLE)) {
    if (has_state(element.states, ATSPI_STATE_SELECTED)) return via(Route::kAlreadyInState);
    return do_action(element, flip, true);
  }
  return unsupported(ActionKind::kSelect, element,
                     "its container has no Selection and it lists no select action");
}

Result<ChosenRoute> choose_named(const ElementFacts& element, std::string_view requested) {
  for (std::size_t i = 0; i < element.actions.size(); ++i) {
    if (element.actions[i] == requested) return do_action(element, static_cast<int>(i));
  }
  int match = -1;
  for (std::size_t i = 0; i < element.actions.size(); ++i) {
    if (!equals_ignoring_ascii_case(element.actions[i], requested)) continue;
    if (match >= 0) {
      return unsupported(ActionKind::kNamed, element,
                         "several actions match \"" + std::string(requested) +
                             "\" when case is ignored; give the exact name");
    }
    match = static_cast<int>(i);
  }
  if (match >= 0) return do_action(element, match);
  return unsupported(ActionKind::kNamed, element,
                     "it lists no action named \"" + std::string(requested) + "\"");
}

bool is_editable_text(const ElementFacts& element) {
  return (element.interfaces & kInterfaceEditableText) &&
         has_state(element.states, ATSPI_STATE_EDITABLE);
}

constexpr const char* kTypeItInstead =
    "with the setting physical_input on (the person's to switch), the text is typed through the keyboard "
    "and read back";

Result<ChosenRoute> edit_text(ActionKind kind, Route route, const RouteRules& rules) {
  if (rules.editable_text) return via(route);
  return make_error(ErrorCode::kActionNotSupported,
                    "the app's toolkit accepts text set through accessibility and ignores it",
                    {{"kind", "toolkit_ignores_editable_text"}, {"method", std::string(method_name(kind))}},
                    kTypeItInstead);
}

// Editable text without the EditableText interface (Chromium's web inputs): only the
// keyboard can change it.
bool is_editable_without_interface(const ElementFacts& element) {
  return (element.interfaces & kInterfaceText) && !(element.interfaces & kInterfaceEditableText) &&
         has_state(element.states, ATSPI_STATE_EDITABLE);
}

Error needs_the_keyboard(ActionKind kind) {
  return make_error(ErrorCode::kActionNotSupported,
                    "the element is editable but offers no EditableText to change its text through",
                    {{"kind", "no_editable_text"}, {"method", std::string(method_name(kind))}}, kTypeItInstead);
}

}  // namespace

bool only_the_keyboard_can(const Error& refusal) {
  const std::string kind = refusal.details.is_object() ? refusal.details.value("kind", std::string()) : std::string();
  return kind == "toolkit_ignores_editable_text" || kind == "no_editable_text";
}

bool is_checkable(std::uint32_t role, StateSet states) {
  switch (role) {
    case ATSPI_ROLE_CHECK_BOX:
    case ATSPI_ROLE_TOGGLE_BUTTON:
    case ATSPI_ROLE_RADIO_BUTTON:
    case ATSPI_ROLE_CHECK_MENU_ITEM:
    case ATSPI_ROLE_RADIO_MENU_ITEM:
      return true;
    default:
      return has_state(states, ATSPI_STATE_CHECKABLE);
  }
}

Result<ChosenRoute> choose_route(ActionKind kind, const ElementFacts& element,
                                 const ContainerFacts& parent, const ContainerFacts& grandparent,
                                 std::string_view argument, const RouteRules& rules) {
  switch (kind) {
    case ActionKind::kClick: {
      const int index = find_preferred(element.actions, kClickNames);
      if (index >= 0) return do_action(element, index);
      // A click on a check box or radio button flips or picks it: web engines name that
      // action for its effect (Gecko and Chromium: check, uncheck; Gecko's radio: select).
      if (is_checkable(element.role, element.states)) {
        const int flip = find_preferred(element.actions, kToggleNames);
        if (flip >= 0) return do_action(element, flip, true);
      }
      return unsupported(kind, element,
                         "it lists no click, press, activate, invoke, jump, open, switch or "
                         "clickAncestor action");
    }
    case ActionKind::kToggle: {
      if (!is_checkable(element.role, element.states)) {
        return unsupported(kind, element, "it is not checkable");
      }
      const int index = find_preferred(element.actions, kToggleNames);
      if (index >= 0) return do_action(element, index, true);
      return unsupported(kind, element,
                         "it lists no toggle, check, uncheck, click, press, activate or select "
                         "action");
    }
    case ActionKind::kExpand:
    case ActionKind::kCollapse:
      return choose_expansion(kind, element);
    case ActionKind::kSelect:
      return choose_select(element, parent, grandparent, rules.container_selection);
    case ActionKind::kFocus:
      if ((element.interfaces & kInterfaceComponent) &&
          has_state(element.states, ATSPI_STATE_FOCUSABLE)) {
        return via(Route::kGrabFocus);
      }
      return unsupported(kind, element, "it is not focusable");
    case ActionKind::kNamed:
      if (argument.empty()) {
        return make_error(ErrorCode::kInvalidArgs, "no action name given", {{"param", "action"}},
                          "name one of the element's actions");
      }
      return choose_named(element, argument);
    case ActionKind::kSetValue:
      if (element.role == ATSPI_ROLE_TABLE_CELL && has_state(element.states, ATSPI_STATE_EDITABLE) &&
          (element.interfaces & kInterfaceText) && !(element.interfaces & kInterfaceEditableText)) {
        if ((element.interfaces & kInterfaceValue) && plain_number(argument)) return via(Route::kCellNumber);
        return via(Route::kCellEntry);
      }
      if ((element.interfaces & kInterfaceValue) && element.role != ATSPI_ROLE_PROGRESS_BAR &&
          element.role != ATSPI_ROLE_LEVEL_BAR) {
        return via(Route::kSetNumber);
      }
      if (is_editable_text(element)) return edit_text(kind, Route::kSetText, rules);
      if (is_editable_without_interface(element)) return needs_the_keyboard(kind);
      return unsupported(kind, element, "it has neither a settable Value nor editable text");
    case ActionKind::kType:
      if (is_editable_text(element)) return edit_text(kind, Route::kInsertText, rules);
      if (is_editable_without_interface(element)) return needs_the_keyboard(kind);
      return unsupported(kind, element, "it has no editable text");
  }
  return unsupported(kind, element, "unknown action");
}

Result<ChosenRoute> choose_keyboard_route(ActionKind kind, const ElementFacts& element,
                                          std::string_view text) {
  if (kind != ActionKind::kSetValue && kind != ActionKind::kType) {
    return unsupported(kind, element, "only set-value and type can go through the keyboard");
  }
  const bool has_text = (element.interfaces & kInterfaceText) && (element.interfaces & kInterfaceComponent);
  if (!has_text || !has_state(element.states, ATSPI_STATE_EDITABLE)) {
    return unsupported(kind, element, "it has no editable text to type into");
  }
  if (!has_state(element.states, ATSPI_STATE_FOCUSABLE)) {
    return unsupported(kind, element, "it cannot take the keyboard focus");
  }
  if (!has_state(element.states, ATSPI_STATE_MULTI_LINE) && text.find_first_of("\n\t") != std::string_view::npos) {
    return make_error(ErrorCode::kInvalidArgs,
                      "the text holds a line break or tab, and the element is not multi-line: typed, it "
                      "would press Enter or move the focus",
                      {{"param", std::string(kind == ActionKind::kType ? "text" : "value")},
                       {"reason", "control_key_in_single_line"}},
                      "give one line of text, or use press for Enter or Tab");
  }
  return via(Route::kKeyboard);
}

std::string route_name(const ChosenRoute& route) {
  switch (route.route) {
    case Route::kDoAction:
      return "action:" + route.action_name;
    case Route::kSelectInParent:
    case Route::kSelectInGrandparent:
      return "Selection.SelectChild";
    case Route::kGrabFocus:
      return "Component.GrabFocus";
    case Route::kSetText:
      return "EditableText.SetTextContents";
    case Route::kSetNumber:
    case Route::kCellNumber:
      return "Value.CurrentValue";
    case Route::kInsertText:
      return "EditableText.InsertText";
    case Route::kKeyboard:
      return "xtest:keyboard";
    case Route::kCellEntry:
      return "input_line";
    case Route::kAlreadyInState:
      return "none";
  }
  return "none";
}

}  // namespace companyos::a11y
