// What a toolkit's AT-SPI bridge can be trusted with, by the ToolkitName and Version its
// application reports. Unknown toolkits get the safe answers (read everything, the long
// way), so only verified shortcuts are ever taken.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace companyos::a11y {

struct ToolkitTraits {
  // Properties.GetAll of org.a11y.atspi.Accessible answers Name, Description (and
  // AccessibleId) in one call. Qt 5.15's bridge crashes the app on it (measured: featherpad
  // and speedcrunch segfault on the first GetAll), so only bridges seen answering it take it
  // (GTK, Gecko, Chromium, LibreOffice's VCL); every other one is read a property at a time.
  bool accessible_properties_in_one_call = false;
  // Text.GetText(0, -1) returns the whole text (GTK3). GTK4 answers "" to it, so the
  // length is read first there; INT_MAX is never passed (GTK3 labels read past the end).
  bool whole_text_with_minus_one = false;
  // The showing state says what is on screen: a node without it is offscreen and has no
  // bounds to give (GTK3 reports INT_MIN for it, Qt 0×0), and the agent view folds it:
  // GTK 3, Qt 5 and Qt 6. GTK 4.8 leaves showing unset on nearly every node (measured:
  // GNOME Calculator marks only its window); bridges not measured fold nothing.
  bool showing_means_on_screen = false;
  // The coordinate type GetExtents is asked in (AtspiCoordType). GTK 4.8 only knows
  // window coordinates: asked for screen ones it warns on stderr per call and answers
  // window-relative positions anyway.
  std::uint32_t extents_coord_type = 0;  // ATSPI_COORD_TYPE_SCREEN
  // How long after one activation of a button (activates_like_a_button) another one
  // takes effect. GTK4 shows an activation for 250 ms (ACTIVATE_TIMEOUT), runs "clicked"
  // as that ends, and drops a second activation meanwhile, answering it all the same.
  // GTK3's bridge clicks at once (measured: the effect within 1 ms of the reply).
  std::chrono::milliseconds button_activation_spacing{0};
  // EditableText.SetTextContents / InsertText change the text. Gecko (Firefox ESR 153)
  // answers them with success and changes nothing, in web content and its own URL bar
  // alike (measured: the text and the page's value stay as they were, no input event), so
  // set-value and type are refused there unless they may type through the keyboard.
  bool editable_text_takes_effect = true;
  // A container's Selection.SelectChild selects the item as the app sees it. Gecko marks
  // the item selected in its accessibility tree only: a <select> or list box keeps its
  // value and the page gets no change event (measured), while the item's own "select"
  // action does what a click would. Without this, select takes the item's action.
  bool selection_interface_reaches_the_app = true;
  // Nodes whose GetActions answers are identical (role, localized names, descriptions)
  // have the same stable names (GetName), so a snapshot asks one node of each kind. Gecko
  // breaks it: a <select>'s options list "select" or "click" by where they are, with the
  // same GetActions answer (measured), so every node is asked.
  bool action_names_shared_by_kind = true;
  // Action.GetActions answers each action's localized name, description and key binding in
  // one call. Gecko composes a menu item's key binding (its accelerator) into bytes that are
  // not UTF-8, its bridge puts them in the reply unchecked, and libdbus aborts Firefox
  // (measured on Firefox ESR 153: GetActions of File ▸ New Tab, with the menu open, kills
  // it; NActions and GetName(i) on every item do not). Where this is false, the count is
  // the NActions property and the names come from GetName(i): a key binding is never asked.
  bool action_list_in_one_call = true;
  // A button's name repeats its label's text: GTK 4.8 joins the accessible label a .ui
  // gives a button to the text of its label child, so GNOME Calculator's buttons are
  // named "7 7", "mod mod", "= =" (measured; a button made with gtk_button_new_with_label
  // is not). Read names are shown once (name_as_shown) wherever they are read.
  bool label_repeated_in_button_names = false;
  // A widget without a name of its own is named by its class: GTK 4.8 names GNOME
  // Calculator's display "GtkSourceView" and its history "GtkTextView" (measured). Such a
  // name says nothing of the element, so it is shown as no name (name_as_shown); so are
  // libadwaita's ("AdwGizmo", "AdwLeaflet").
  bool class_names_as_names = false;
  // Actions the bridge lists on every node whatever it is: Chromium gives each panel,
  // static text and heading "doDefault" and "showContextMenu" (measured: all 258 nodes of a
  // browser window). They do not make a node something to act on, and the agent view does
  // not repeat them on every line (docs/observation.md says they are there).
  std::vector<std::string> actions_on_every_node;
  // A node that can be used has the enabled state, so one without it is disabled: GTK 3,
  // Qt, Gecko, Chromium and LibreOffice (measured: Writer's Cut with nothing selected,
  // the browsers' Back with no history lack it; what works has it). GTK 4.8 sets enabled on
  // nothing (GNOME Calculator's working buttons lack it), so there its absence says nothing.
  bool enabled_state_marked = false;
  // The app is a browser: its main windows (frames) show a web page, whose document can be
  // missing from the tree for a while after the window has its title (measured: Firefox's
  // window titled by the page, with no document in it yet, for ~0.5 s).
  bool frames_show_web_pages = false;
};

// The name a node is known by: the read name, with a repeated label shown once where the
// toolkit repeats it ("7 7" → "7" for a GTK 4 button), and no name where the toolkit gave
// its class name ("GtkSourceView"); every read of a name goes through this, so snapshots,
// live resolution and single reads agree on identities.
std::string name_as_shown(const ToolkitTraits& toolkit, std::uint32_t role, std::string name);

// Push, toggle, check, radio and menu buttons: the roles GTK's buttons have.
bool activates_like_a_button(std::uint32_t role);

ToolkitTraits toolkit_traits(std::string_view toolkit_name, std::string_view toolkit_version);

}  // namespace companyos::a11y
