#include "a11y/toolkit/traits.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include <atspi/atspi.h>
#include <glib.h>

#include "core/text.h"

namespace companyos::a11y {
namespace {

bool is_gtk(std::string_view name) { return equals_ignoring_ascii_case(name, "gtk"); }
bool is_gecko(std::string_view name) { return equals_ignoring_ascii_case(name, "gecko"); }
bool is_qt(std::string_view name) { return equals_ignoring_ascii_case(name, "qt"); }
bool is_chromium(std::string_view name) { return equals_ignoring_ascii_case(name, "chromium"); }

bool named_one_of(std::string_view name, std::initializer_list<std::string_view> known) {
  return std::any_of(known.begin(), known.end(),
                     [name](std::string_view one) { return equals_ignoring_ascii_case(name, one); });
}

// Bridges seen answering Properties.GetAll on the Accessible interface without harm.
bool answers_get_all(std::string_view name) { return named_one_of(name, {"gtk", "gecko", "chromium", "vcl"}); }

bool marks_enabled(std::string_view name, std::string_view version) {
  if (is_gtk(name)) return version.starts_with("3.");
  return named_one_of(name, {"qt", "gecko", "chromium", "vcl"});
}

}  // namespace

bool activates_like_a_button(std::uint32_t role) {
  switch (role) {
    case ATSPI_ROLE_PUSH_BUTTON:
    case ATSPI_ROLE_TOGGLE_BUTTON:
    case ATSPI_ROLE_CHECK_BOX:
    case ATSPI_ROLE_RADIO_BUTTON:
    case ATSPI_ROLE_PUSH_BUTTON_MENU:
      return true;
    default:
      return false;
  }
}

ToolkitTraits toolkit_traits(std::string_view toolkit_name, std::string_view toolkit_version) {
  ToolkitTraits traits;
  traits.enabled_state_marked = marks_enabled(toolkit_name, toolkit_version);
  traits.extents_coord_type = ATSPI_COORD_TYPE_SCREEN;
  traits.accessible_properties_in_one_call = answers_get_all(toolkit_name);
  if (is_gecko(toolkit_name)) {
    // Measured on Firefox ESR with a form page: a background tab's document (the preloaded
    // New Tab), the hidden menu bar, closed popups and a closed <select>'s other options
    // lack showing; what is drawn has it.
    traits.showing_means_on_screen = true;
    traits.frames_show_web_pages = true;
    traits.editable_text_takes_effect = false;
    traits.selection_interface_reaches_the_app = false;
    traits.action_names_shared_by_kind = false;
    traits.action_list_in_one_call = false;
  }
  // Measured on FeatherPad (Qt 5.15) and Tetzle (Qt 6.4): a closed menu's popup, a hidden
  // dock and an unselected tab's page lack showing and answer 0×0 bounds; everything on
  // screen has it.
  if (is_qt(toolkit_name)) traits.showing_means_on_screen = true;
  // Measured on Chromium 143 with a form page: toolbar buttons hidden at 0×0, a closed
  // <select>'s other options and the hidden tab strip lack showing; what is drawn has it.
  if (is_chromium(toolkit_name)) {
    traits.showing_means_on_screen = true;
    traits.actions_on_every_node = {"doDefault", "showContextMenu"};
    traits.frames_show_web_pages = true;
  }
  if (!is_gtk(toolkit_name)) return traits;
  if (toolkit_version.starts_with("3.")) {
    traits.whole_text_with_minus_one = true;
    traits.showing_means_on_screen = true;
  } else if (toolkit_version.starts_with("4.")) {
    traits.extents_coord_type = ATSPI_COORD_TYPE_WINDOW;
    // 250 ms, and a margin for the timer running late on a busy app.
    traits.button_activation_spacing = std::chrono::milliseconds(300);
    traits.label_repeated_in_button_names = true;
    traits.class_names_as_names = true;
  }
  return traits;
}

namespace {

// "Gtk" or "Adw" (libadwaita) then a capitalised class name, letters and digits only:
// GtkSourceView, GtkTextView, AdwGizmo, AdwLeaflet.
bool is_gtk_class_name(std::string_view name) {
  if (name.size() < 4 || !(name.starts_with("Gtk") || name.starts_with("Adw")) || !g_ascii_isupper(name[3])) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) { return g_ascii_isalnum(c); });
}

}  // namespace

std::string name_as_shown(const ToolkitTraits& toolkit, std::uint32_t role, std::string name) {
  if (toolkit.class_names_as_names && is_gtk_class_name(name)) return std::string();
  if (!toolkit.label_repeated_in_button_names || !activates_like_a_button(role)) return name;
  // "X X": two equal halves around one space.
  if (name.size() < 3 || name.size() % 2 == 0) return name;
  const std::size_t half = name.size() / 2;
  if (name[half] != ' ' || name.compare(0, half, name, half + 1, half) != 0) return name;
  name.resize(half);
  return name;
}

}  // namespace companyos::a11y
