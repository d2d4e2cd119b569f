// Small hand-built snapshots for the view, render, identity and reply tests.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <atspi/atspi.h>

#include "a11y/model.h"
#include "a11y/view.h"

namespace companyos::a11y::testing {

struct Spec {
  int parent;  // index of the parent, -1 for the window
  AtspiRole role;
  std::string name;
  std::vector<std::string> actions = {};
  std::vector<AtspiStateType> states = {};
};

inline ViewOptions view_options(bool interactive, bool compact, std::optional<int> max_depth) {
  return filtered_view(interactive, compact, max_depth);
}

// A snapshot "abc" of app "editor", window "Editor", holding these nodes.
inline Snapshot snapshot_of(std::vector<Node> nodes) {
  Snapshot snapshot;
  snapshot.id = "abc";
  snapshot.app_name = "editor";
  snapshot.window.id = "w0123456789ab";
  snapshot.window.title = "Editor";
  snapshot.nodes = std::move(nodes);
  return snapshot;
}

// Nodes in depth-first order (parents before children, as a snapshot lists them).
inline std::vector<Node> make_nodes(const std::vector<Spec>& specs) {
  std::vector<Node> nodes;
  for (const Spec& spec : specs) {
    Node node;
    node.ref = static_cast<int>(nodes.size()) + 1;
    node.role = spec.role;
    node.name = spec.name;
    node.actions = spec.actions;
    for (AtspiStateType state : spec.states) node.states |= StateSet{1} << state;
    node.parent = spec.parent;
    node.path = "/n" + std::to_string(node.ref);
    if (spec.parent >= 0) nodes[static_cast<std::size_t>(spec.parent)].children.push_back(node.ref - 1);
    nodes.push_back(node);
  }
  return nodes;
}

inline std::vector<Node> make_nodes(std::initializer_list<Spec> specs) {
  return make_nodes(std::vector<Spec>(specs));
}

// frame "Editor"
//   filler                      (wrapper: nameless, one child)
//     panel "Form"
//       label "Name"
//       push button "Save"      click
//       text "Name"             editable
//       panel                   (wrapper)
//         check box "Bold"      click
inline std::vector<Node> editor_nodes() {
  return make_nodes({
      {-1, ATSPI_ROLE_FRAME, "Editor", {}, {ATSPI_STATE_ACTIVE}},
      {0, ATSPI_ROLE_FILLER, ""},
      {1, ATSPI_ROLE_PANEL, "Form"},
      {2, ATSPI_ROLE_LABEL, "Name"},
      {2, ATSPI_ROLE_PUSH_BUTTON, "Save", {"click"}, {ATSPI_STATE_ENABLED, ATSPI_STATE_FOCUSABLE}},
      {2, ATSPI_ROLE_TEXT, "Name", {"focus"}, {ATSPI_STATE_EDITABLE}},
      {2, ATSPI_ROLE_PANEL, ""},
      {6, ATSPI_ROLE_CHECK_BOX, "Bold", {"click"}},
  });
}

}  // namespace companyos::a11y::testing
