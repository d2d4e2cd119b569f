// GetItems records for tests, as a bridge would send them: as RawNodes, or as the body of
// a real sd-bus message for the readers.
#pragma once

#include <string>
#include <vector>

#include <atspi/atspi.h>
#include <gtest/gtest.h>

#include "a11y/bus/sd_bus_handles.h"
#include "a11y/model.h"

namespace companyos::a11y::testing {

struct Item {
  std::string path;
  std::string parent;
  int index = 0;
  int child_count = 0;
  std::vector<std::string> interfaces;  // short names: "Action" → org.a11y.atspi.Action
  std::string name;
  AtspiRole role = ATSPI_ROLE_FILLER;
  std::string description;
  std::vector<AtspiStateType> states;
};

inline std::uint32_t state_word(const Item& item, int word) {
  std::uint32_t bits = 0;
  for (AtspiStateType state : item.states) {
    if (state / 32 == word) bits |= 1u << (state % 32);
  }
  return bits;
}

inline RawNode raw_node(const Item& item) {
  RawNode node;
  node.path = item.path;
  node.parent_path = item.parent;
  node.index_in_parent = item.index;
  node.child_count = item.child_count;
  for (const std::string& name : item.interfaces) {
    node.interfaces |= interface_bit("org.a11y.atspi." + name);
  }
  node.name = item.name;
  node.role = item.role;
  node.description = item.description;
  const std::uint32_t words[2] = {state_word(item, 0), state_word(item, 1)};
  node.states = state_set_from_words(words, 2);
  return node;
}

inline std::vector<RawNode> raw_nodes(const std::vector<Item>& items) {
  std::vector<RawNode> nodes;
  for (const Item& item : items) nodes.push_back(raw_node(item));
  return nodes;
}

// Appends a GetItems reply body, a((so)(so)(so)iiassusau), listing items.
inline void append_get_items(sd_bus_message* message, const std::vector<Item>& items) {
  const char* bus = ":1.5";
  ASSERT_GE(sd_bus_message_open_container(message, 'a', "((so)(so)(so)iiassusau)"), 0);
  for (const Item& item : items) {
    ASSERT_GE(sd_bus_message_open_container(message, 'r', "(so)(so)(so)iiassusau"), 0);
    ASSERT_GE(sd_bus_message_append(message, "(so)(so)(so)ii", bus, item.path.c_str(), bus,
                                    "/org/a11y/atspi/accessible/root", bus, item.parent.c_str(),
                                    item.index, item.child_count),
              0);
    ASSERT_GE(sd_bus_message_open_container(message, 'a', "s"), 0);
    ASSERT_GE(sd_bus_message_append(message, "s", "org.a11y.atspi.Accessible"), 0);
    for (const std::string& name : item.interfaces) {
      ASSERT_GE(sd_bus_message_append(message, "s", ("org.a11y.atspi." + name).c_str()), 0);
    }
    ASSERT_GE(sd_bus_message_close_container(message), 0);
    ASSERT_GE(sd_bus_message_append(message, "sus", item.name.c_str(),
                                    static_cast<std::uint32_t>(item.role),
                                    item.description.c_str()),
              0);
    ASSERT_GE(sd_bus_message_append(message, "au", 2, state_word(item, 0), state_word(item, 1)),
              0);
    ASSERT_GE(sd_bus_message_close_container(message), 0);
  }
  ASSERT_GE(sd_bus_message_close_container(message), 0);
}

inline std::string path(int n) { return "/org/a11y/atspi/accessible/" + std::to_string(n); }
inline const std::string kRoot = "/org/a11y/atspi/accessible/root";

// An editor window as GTK3 lists it after a row was packed with gtk_box_pack_start: the
// filler reports 5 children but only 4 are in the cache, and the tree (which manages its
// descendants) reports -1.
inline std::vector<Item> editor_items() {
  return {
      {kRoot, "/org/a11y/atspi/accessible/root", -1, 2, {"Application"}, "editor",
       ATSPI_ROLE_APPLICATION, "", {}},
      {path(1), kRoot, 0, 1, {"Component"}, "Editor", ATSPI_ROLE_FRAME, "",
       {ATSPI_STATE_ACTIVE, ATSPI_STATE_ENABLED, ATSPI_STATE_SHOWING, ATSPI_STATE_VISIBLE}},
      {path(2), path(1), 0, 5, {"Component"}, "", ATSPI_ROLE_FILLER, "",
       {ATSPI_STATE_ENABLED, ATSPI_STATE_SHOWING, ATSPI_STATE_VISIBLE}},
      // Listed out of order on purpose: children are ordered by index in parent.
      {path(4), path(2), 1, 0, {"Action", "Component", "EditableText", "Text"}, "Name",
       ATSPI_ROLE_TEXT, "",
       {ATSPI_STATE_EDITABLE, ATSPI_STATE_ENABLED, ATSPI_STATE_FOCUSABLE, ATSPI_STATE_SHOWING}},
      {path(3), path(2), 0, 0, {"Action", "Component"}, "Save", ATSPI_ROLE_PUSH_BUTTON, "",
       {ATSPI_STATE_ENABLED, ATSPI_STATE_FOCUSABLE, ATSPI_STATE_SENSITIVE, ATSPI_STATE_SHOWING,
        ATSPI_STATE_VISIBLE}},
      {path(5), path(2), 2, 0, {"Action", "Component", "EditableText", "Text"}, "Password",
       ATSPI_ROLE_PASSWORD_TEXT, "", {ATSPI_STATE_EDITABLE, ATSPI_STATE_ENABLED}},
      {path(6), path(2), 3, -1, {"Component", "Selection", "Table"}, "Tree",
       ATSPI_ROLE_TREE_TABLE, "", {ATSPI_STATE_MANAGES_DESCENDANTS}},
      {path(7), kRoot, 1, 0, {"Component"}, "Other", ATSPI_ROLE_FRAME, "", {}},
  };
}

}  // namespace companyos::a11y::testing
