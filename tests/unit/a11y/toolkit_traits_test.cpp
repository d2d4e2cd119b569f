#include "a11y/toolkit/traits.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;

TEST(ToolkitTraits, TakeOnlyVerifiedShortcuts) {
  struct ShortcutCase {
    const char* name;
    const char* version;
    bool whole_text;
    bool showing;
    std::uint32_t coords;
    bool get_all;
  };
  const ShortcutCase cases[] = {
      {"gtk", "3.24.38", true, true, ATSPI_COORD_TYPE_SCREEN, true},
      {"GTK", "3.22.30", true, true, ATSPI_COORD_TYPE_SCREEN, true},
      {"GTK", "4.8.3", false, false, ATSPI_COORD_TYPE_WINDOW, true},
      {"gtk", "2.24.33", false, false, ATSPI_COORD_TYPE_SCREEN, true},
      // Qt 5.15's bridge crashes the app on Properties.GetAll; Qt marks what is on screen.
      {"Qt", "5.15.8", false, true, ATSPI_COORD_TYPE_SCREEN, false},
      {"Qt", "6.4.2", false, true, ATSPI_COORD_TYPE_SCREEN, false},
      {"qt", "6.4.2", false, true, ATSPI_COORD_TYPE_SCREEN, false},
      {"Qtx", "6.4.2", false, false, ATSPI_COORD_TYPE_SCREEN, false},
      {"Gecko", "115.0", false, true, ATSPI_COORD_TYPE_SCREEN, true},
      {"Chromium", "120.0", false, true, ATSPI_COORD_TYPE_SCREEN, true},
      {"VCL", "7.4", false, false, ATSPI_COORD_TYPE_SCREEN, true},
      {"gtk3", "3.24", false, false, ATSPI_COORD_TYPE_SCREEN, false},
      {"", "", false, false, ATSPI_COORD_TYPE_SCREEN, false},
      {"gtk", "", false, false, ATSPI_COORD_TYPE_SCREEN, true},
      {"Geckoo", "115", false, false, ATSPI_COORD_TYPE_SCREEN, false},
  };
  for (const ShortcutCase& c : cases) {
    const ToolkitTraits traits = toolkit_traits(c.name, c.version);
    EXPECT_EQ(traits.whole_text_with_minus_one, c.whole_text) << c.name << " " << c.version;
    EXPECT_EQ(traits.showing_means_on_screen, c.showing) << c.name << " " << c.version;
    EXPECT_EQ(traits.extents_coord_type, c.coords) << c.name << " " << c.version;
    EXPECT_EQ(traits.accessible_properties_in_one_call, c.get_all) << c.name << " " << c.version;
  }
}

TEST(ToolkitTraits, OnlyChromiumListsActionsOnEveryNode) {
  struct EveryNodeCase {
    const char* name;
    std::vector<std::string> actions;
  };
  const EveryNodeCase cases[] = {{"Chromium", {"doDefault", "showContextMenu"}},
                                 {"chromium", {"doDefault", "showContextMenu"}},
                                 {"Gecko", {}},
                                 {"GTK", {}},
                                 {"Qt", {}},
                                 {"Chromiumx", {}},
                                 {"", {}}};
  for (const EveryNodeCase& c : cases) {
    EXPECT_EQ(toolkit_traits(c.name, "143").actions_on_every_node, c.actions) << c.name;
  }
}

TEST(ToolkitTraits, WhereEnabledIsMarkedItsAbsenceMeansDisabled) {
  struct EnabledCase {
    const char* name;
    const char* version;
    bool marked;
  };
  const EnabledCase cases[] = {{"GTK", "3.24.38", true}, {"GTK", "4.8.3", false}, {"Qt", "5.15.8", true},
                               {"Gecko", "153", true},   {"Chromium", "143", true}, {"VCL", "7.4", true},
                               {"", "", false},          {"gtk", "", false},        {"Qtx", "6", false}};
  for (const EnabledCase& c : cases) {
    EXPECT_EQ(toolkit_traits(c.name, c.version).enabled_state_marked, c.marked) << c.name << " " << c.version;
  }
}

TEST(ToolkitTraits, OnlyBrowsersFramesShowWebPages) {
  for (const char* browser : {"Gecko", "gecko", "Chromium"}) {
    EXPECT_TRUE(toolkit_traits(browser, "143").frames_show_web_pages) << browser;
  }
  for (const char* other : {"GTK", "Qt", "VCL", "", "Geckoo"}) {
    EXPECT_FALSE(toolkit_traits(other, "3.24").frames_show_web_pages) << other;
  }
}

TEST(ToolkitTraits, OnlyGtk4SpacesButtonActivations) {
  struct SpacingCase {
    const char* toolkit;
    const char* version;
    std::chrono::milliseconds spacing;
  };
  // GTK3's bridge clicks at once; GTK4 takes 250 ms and drops a click meanwhile.
  const SpacingCase cases[] = {{"GTK", "4.8.3", 300ms}, {"gtk", "4.12.0", 300ms},
                               {"gtk", "3.24.38", 0ms}, {"Qt", "5.15.8", 0ms},
                               {"Gecko", "115", 0ms},   {"", "", 0ms},
                               {"GTKX", "4.8", 0ms}};
  for (const SpacingCase& c : cases) {
    EXPECT_EQ(toolkit_traits(c.toolkit, c.version).button_activation_spacing, c.spacing)
        << c.toolkit << " " << c.version;
  }
  EXPECT_TRUE(activates_like_a_button(ATSPI_ROLE_PUSH_BUTTON));
  EXPECT_TRUE(activates_like_a_button(ATSPI_ROLE_CHECK_BOX));
  EXPECT_FALSE(activates_like_a_button(ATSPI_ROLE_MENU_ITEM));
  EXPECT_FALSE(activates_like_a_button(ATSPI_ROLE_TEXT));
}

TEST(ToolkitTraits, OnlyGeckoIgnoresEditableTextAndSelectionAndSharedActionNamesAndIsNeverAskedForItsActionList) {
  struct WriteCase {
    const char* toolkit;
    const char* version;
    bool editable_text;
    bool selection;
  };
  // Firefox answers EditableText and Selection.SelectChild with success and leaves the
  // page as it was.
  const WriteCase cases[] = {{"Gecko", "153.8", false, false}, {"gecko", "115", false, false},
                             {"GTK", "3.24.38", true, true},    {"GTK", "4.8.3", true, true},
                             {"Qt", "5.15.8", true, true},      {"Chromium", "156", true, true},
                             {"VCL", "7.4", true, true},        {"", "", true, true},
                             {"Geckoo", "153", true, true}};
  for (const WriteCase& c : cases) {
    const ToolkitTraits traits = toolkit_traits(c.toolkit, c.version);
    EXPECT_EQ(traits.editable_text_takes_effect, c.editable_text) << c.toolkit << " " << c.version;
    EXPECT_EQ(traits.selection_interface_reaches_the_app, c.selection) << c.toolkit << " " << c.version;
    // Gecko's options name their actions by where they are, not by their GetActions answer.
    EXPECT_EQ(traits.action_names_shared_by_kind, c.selection) << c.toolkit << " " << c.version;
    // Gecko's GetActions can abort Firefox (a menu item's key binding): never asked there.
    EXPECT_EQ(traits.action_list_in_one_call, c.selection) << c.toolkit << " " << c.version;
  }
}

TEST(ToolkitTraits, GtkFourButtonsShowARepeatedLabelOnce) {
  const ToolkitTraits gtk4 = toolkit_traits("GTK", "4.8.3");
  const ToolkitTraits gtk3 = toolkit_traits("GTK", "3.24.38");
  struct Case {
    const char* what;
    const ToolkitTraits& toolkit;
    std::uint32_t role;
    const char* read;
    const char* shown;
  };
  const Case cases[] = {
      {"a digit", gtk4, ATSPI_ROLE_PUSH_BUTTON, "7 7", "7"},
      {"a word", gtk4, ATSPI_ROLE_PUSH_BUTTON, "mod mod", "mod"},
      {"a multibyte sign", gtk4, ATSPI_ROLE_PUSH_BUTTON, "\u00f7 \u00f7", "\u00f7"},
      {"a repeated phrase", gtk4, ATSPI_ROLE_TOGGLE_BUTTON, "Main Menu Main Menu", "Main Menu"},
      {"halves that differ", gtk4, ATSPI_ROLE_PUSH_BUTTON, "7 8", "7 8"},
      {"two spaces between", gtk4, ATSPI_ROLE_PUSH_BUTTON, "7  7", "7  7"},
      {"no space between", gtk4, ATSPI_ROLE_PUSH_BUTTON, "77", "77"},
      {"a plain name", gtk4, ATSPI_ROLE_PUSH_BUTTON, "Write effect", "Write effect"},
      {"a single character", gtk4, ATSPI_ROLE_PUSH_BUTTON, "7", "7"},
      {"empty", gtk4, ATSPI_ROLE_PUSH_BUTTON, "", ""},
      {"a label keeps its text", gtk4, ATSPI_ROLE_LABEL, "7 7", "7 7"},
      {"GTK 3 keeps every name", gtk3, ATSPI_ROLE_PUSH_BUTTON, "7 7", "7 7"},
      {"GTK 4: a class name is no name", gtk4, ATSPI_ROLE_TEXT, "GtkSourceView", ""},
      {"GTK 4: on any role", gtk4, ATSPI_ROLE_PUSH_BUTTON, "GtkButton", ""},
      {"GTK 4: a word after Gtk is a name", gtk4, ATSPI_ROLE_LABEL, "Gtk is fun", "Gtk is fun"},
      {"GTK 4: lower case after Gtk", gtk4, ATSPI_ROLE_LABEL, "Gtkx", "Gtkx"},
      {"GTK 4: Gtk alone", gtk4, ATSPI_ROLE_LABEL, "Gtk", "Gtk"},
      {"GTK 3 keeps a class name", gtk3, ATSPI_ROLE_TEXT, "GtkSourceView", "GtkSourceView"},
  };
  for (const Case& c : cases) EXPECT_EQ(name_as_shown(c.toolkit, c.role, c.read), c.shown) << c.what;
}

}  // namespace
}  // namespace companyos::a11y
