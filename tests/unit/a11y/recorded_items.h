// Builds GetItems replies for tests, as a bridge would send them.
#pragma once

#include <string>
#include <vector>

#include <atspi/atspi.h>
#include <glib.h>

#include "a11y/glib_handles.h"

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

inline GVariant* item_variant(const Item& item) {
  const char* bus = ":1.5";
  GVariantBuilder interfaces;
  g_variant_builder_init(&interfaces, G_VARIANT_TYPE("as"));
  g_variant_builder_add(&interfaces, "s", "org.a11y.atspi.Accessible");
  for (const std::string& name : item.interfaces) {
    g_variant_builder_add(&interfaces, "s", ("org.a11y.atspi." + name).c_str());
  }
  guint32 words[2] = {0, 0};
  for (AtspiStateType state : item.states) words[state / 32] |= 1u << (state % 32);
  GVariantBuilder states;
  g_variant_builder_init(&states, G_VARIANT_TYPE("au"));
  g_variant_builder_add(&states, "u", words[0]);
  g_variant_builder_add(&states, "u", words[1]);
  return g_variant_new("((so)(so)(so)iiassusau)", bus, item.path.c_str(), bus,
                       "/org/a11y/atspi/accessible/root", bus, item.parent.c_str(), item.index,
                       item.child_count, &interfaces, item.name.c_str(), static_cast<guint32>(item.role),
                       item.description.c_str(), &states);
}

// The whole reply tuple, owned.
inline VariantPtr get_items_reply(const std::vector<Item>& items) {
  GVariantBuilder array;
  g_variant_builder_init(&array, G_VARIANT_TYPE("a((so)(so)(so)iiassusau)"));
  for (const Item& item : items) g_variant_builder_add_value(&array, item_variant(item));
  return VariantPtr(g_variant_ref_sink(g_variant_new("(a((so)(so)(so)iiassusau))", &array)));
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
