#include "a11y/read/details.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

#include "a11y/toolkit/traits.h"

namespace companyos::a11y {
namespace {

StateSet states(std::initializer_list<AtspiStateType> list) {
  StateSet set = 0;
  for (AtspiStateType state : list) set |= StateSet{1} << state;
  return set;
}

TEST(Details, PasswordTextIsNeverRead) {
  struct Case {
    AtspiRole role;
    std::uint32_t interfaces;
    ValueSource expected;
  };
  const Case cases[] = {
      {ATSPI_ROLE_PASSWORD_TEXT, kInterfaceText | kInterfaceEditableText, ValueSource::kWithheld},
      {ATSPI_ROLE_PASSWORD_TEXT, kInterfaceValue, ValueSource::kWithheld},
      {ATSPI_ROLE_PASSWORD_TEXT, 0, ValueSource::kWithheld},
      {ATSPI_ROLE_TEXT, kInterfaceText, ValueSource::kText},
      {ATSPI_ROLE_SPIN_BUTTON, kInterfaceText | kInterfaceValue, ValueSource::kValue},
      {ATSPI_ROLE_SLIDER, kInterfaceValue, ValueSource::kValue},
      {ATSPI_ROLE_PUSH_BUTTON, kInterfaceAction | kInterfaceComponent, ValueSource::kNone},
      {ATSPI_ROLE_COMBO_BOX, kInterfaceSelection | kInterfaceAction, ValueSource::kSelectedChild},
      {ATSPI_ROLE_COMBO_BOX, kInterfaceSelection | kInterfaceText, ValueSource::kText},
      {ATSPI_ROLE_COMBO_BOX, kInterfaceAction, ValueSource::kNone},
      {ATSPI_ROLE_LIST_BOX, kInterfaceSelection, ValueSource::kNone},
      // Calc's cell: its Value is 0 for text; what it shows is its Text.
      {ATSPI_ROLE_TABLE_CELL, kInterfaceText | kInterfaceValue | kInterfaceComponent, ValueSource::kText},
      {ATSPI_ROLE_TABLE_CELL, kInterfaceValue, ValueSource::kValue},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(value_source(c.role, c.interfaces), c.expected) << role_name(c.role);
  }
}

TEST(Details, TextIsReadWhereItIsTheValueNotWhereTheNameSaysIt) {
  struct Case {
    const char* what;
    std::uint32_t role;  // as read from the bus: any number, not only AtspiRole's
    std::uint32_t interfaces;
    StateSet states;
    const char* name;
    bool expected;
  };
  const std::uint32_t text = kInterfaceText;
  const std::uint32_t editable = kInterfaceText | kInterfaceEditableText;
  const Case cases[] = {
      {"entry", ATSPI_ROLE_TEXT, editable, states({ATSPI_STATE_EDITABLE}), "Name", true},
      {"entry without EditableText but editable", ATSPI_ROLE_TEXT, text,
       states({ATSPI_STATE_EDITABLE}), "Name", true},
      {"editable label (unusual)", ATSPI_ROLE_LABEL, editable, 0, "Title", true},
      {"read-only text view", ATSPI_ROLE_TEXT, text, states({ATSPI_STATE_READ_ONLY}), "Log", true},
      {"terminal", ATSPI_ROLE_TERMINAL, text, 0, "Terminal", true},
      {"document", ATSPI_ROLE_DOCUMENT_TEXT, text, 0, "Letter", true},
      {"web document", ATSPI_ROLE_DOCUMENT_WEB, text, 0, "Page", true},
      {"paragraph", ATSPI_ROLE_PARAGRAPH, text, 0, "", true},
      {"entry role", ATSPI_ROLE_ENTRY, text, 0, "Search", true},
      {"label named by its text", ATSPI_ROLE_LABEL, text, 0, "Row 1", false},
      {"label without a name", ATSPI_ROLE_LABEL, text, 0, "", true},
      {"heading", ATSPI_ROLE_HEADING, text, 0, "Settings", false},
      {"link", ATSPI_ROLE_LINK, text, 0, "Help", false},
      {"table cell named by its text", ATSPI_ROLE_TABLE_CELL, text, 0, "Parent", false},
      {"password text", ATSPI_ROLE_PASSWORD_TEXT, editable, states({ATSPI_STATE_EDITABLE}), "",
       false},
      {"no Text interface", ATSPI_ROLE_TEXT, kInterfaceEditableText, 0, "", false},
      {"nothing at all", ATSPI_ROLE_LABEL, 0, 0, "", false},
      {"unknown role, named", 5000, text, 0, "x", false},
      {"unknown role, nameless", 5000, text, 0, "", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(text_is_value(c.role, c.interfaces, c.states, c.name), c.expected) << c.what;
  }
}

Node node_of(AtspiRole role, std::uint32_t interfaces, StateSet node_states,
             std::string name = "Name") {
  Node node;
  node.role = role;
  node.interfaces = interfaces;
  node.states = node_states;
  node.name = std::move(name);
  return node;
}

TEST(Details, PlansOnlyTheCallsANodeNeeds) {
  const ToolkitTraits gtk3 = toolkit_traits("gtk", "3.24.38");
  const ToolkitTraits gtk4 = toolkit_traits("GTK", "4.8.3");
  const ToolkitTraits unknown = toolkit_traits("", "");
  DetailOptions snapshot;
  snapshot.accessible_id = false;
  DetailOptions one_element = snapshot;
  one_element.text_values = TextValues::kAll;
  const StateSet showing = states({ATSPI_STATE_SHOWING, ATSPI_STATE_VISIBLE});
  const StateSet entry_states = states({ATSPI_STATE_SHOWING, ATSPI_STATE_EDITABLE,
                                        ATSPI_STATE_SINGLE_LINE});
  const std::uint32_t button = kInterfaceAction | kInterfaceComponent;
  const std::uint32_t entry = kInterfaceAction | kInterfaceComponent | kInterfaceText |
                              kInterfaceEditableText;
  const std::uint32_t label = kInterfaceComponent | kInterfaceText;
  struct Case {
    const char* what;
    Node node;
    const DetailOptions* options;
    const ToolkitTraits* toolkit;
    DetailPlan expected;
  };
  const Case cases[] = {
      {"showing GTK3 button", node_of(ATSPI_ROLE_PUSH_BUTTON, button, showing), &snapshot, &gtk3,
       {true, true, false, ValueSource::kNone, false}},
      {"offscreen GTK3 button: no bounds to give", node_of(ATSPI_ROLE_PUSH_BUTTON, button, 0),
       &snapshot, &gtk3, {false, true, false, ValueSource::kNone, false}},
      {"GTK4 leaves showing unset: bounds anyway", node_of(ATSPI_ROLE_PUSH_BUTTON, button, 0),
       &snapshot, &gtk4, {true, true, false, ValueSource::kNone, false}},
      {"unknown toolkit: bounds anyway", node_of(ATSPI_ROLE_PUSH_BUTTON, button, 0), &snapshot,
       &unknown, {true, true, false, ValueSource::kNone, false}},
      {"GTK3 entry: whole text in one call", node_of(ATSPI_ROLE_TEXT, entry, entry_states),
       &snapshot, &gtk3, {true, true, false, ValueSource::kText, true}},
      {"GTK3 multi-line text: counted", node_of(ATSPI_ROLE_TEXT, entry,
                                                states({ATSPI_STATE_SHOWING, ATSPI_STATE_EDITABLE,
                                                        ATSPI_STATE_MULTI_LINE})),
       &snapshot, &gtk3, {true, true, false, ValueSource::kText, false}},
      {"GTK4 entry: counted (GetText(0,-1) is empty there)",
       node_of(ATSPI_ROLE_TEXT, entry, entry_states), &snapshot, &gtk4,
       {true, true, false, ValueSource::kText, false}},
      {"named label in a snapshot: no text", node_of(ATSPI_ROLE_LABEL, label, showing), &snapshot,
       &gtk3, {true, false, false, ValueSource::kNone, false}},
      {"named label read alone: text", node_of(ATSPI_ROLE_LABEL, label, showing), &one_element,
       &gtk3, {true, false, false, ValueSource::kText, false}},
      {"nameless label", node_of(ATSPI_ROLE_LABEL, label, showing, ""), &snapshot, &gtk3,
       {true, false, false, ValueSource::kText, false}},
      {"password entry", node_of(ATSPI_ROLE_PASSWORD_TEXT, entry, entry_states), &one_element,
       &gtk3, {true, true, false, ValueSource::kWithheld, false}},
      {"spin button: Value wins", node_of(ATSPI_ROLE_SPIN_BUTTON, entry | kInterfaceValue,
                                          entry_states),
       &snapshot, &gtk3, {true, true, false, ValueSource::kValue, false}},
      {"a named combo box whose text is no value: its selected child",
       node_of(ATSPI_ROLE_COMBO_BOX, label | kInterfaceSelection, showing), &snapshot, &gtk3,
       {true, false, false, ValueSource::kSelectedChild, false}},
      {"no interfaces at all", node_of(ATSPI_ROLE_FILLER, 0, showing), &snapshot, &gtk3,
       {false, false, false, ValueSource::kNone, false}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(plan_details(c.node, *c.options, *c.toolkit), c.expected) << c.what;
  }
  DetailOptions with_ids;
  EXPECT_TRUE(plan_details(node_of(ATSPI_ROLE_FILLER, 0, 0), with_ids, gtk3).accessible_id);
}

TEST(Details, ValuesPrintInShortestForm) {
  struct Case {
    double value;
    const char* expected;
  };
  const Case cases[] = {{0, "0"}, {50, "50"}, {0.25, "0.25"}, {-3.5, "-3.5"}, {1e21, "1e+21"}};
  for (const Case& c : cases) EXPECT_EQ(format_value(c.value), c.expected);
}

TEST(Details, VocabularyNamesRolesStatesAndInterfaces) {
  EXPECT_EQ(role_name(ATSPI_ROLE_PUSH_BUTTON), "push button");
  EXPECT_EQ(role_name(ATSPI_ROLE_PASSWORD_TEXT), "password text");
  EXPECT_EQ(role_name(100000), "unknown");
  EXPECT_EQ(role_from_name("push button"), ATSPI_ROLE_PUSH_BUTTON);
  EXPECT_EQ(role_from_name("no such role"), -1);
  EXPECT_EQ(state_names(states({ATSPI_STATE_MULTI_LINE, ATSPI_STATE_ACTIVE})),
            (std::vector<std::string>{"active", "multi-line"}));
  EXPECT_EQ(interface_bit("org.a11y.atspi.Action"), kInterfaceAction);
  EXPECT_EQ(interface_bit("org.a11y.atspi.Hypertext"), 0u);
  EXPECT_EQ(interface_bit("Action"), 0u);
}

}  // namespace
}  // namespace companyos::a11y
