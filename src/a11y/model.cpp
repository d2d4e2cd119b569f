#include "a11y/model.h"

#include <atspi/atspi.h>

#include "a11y/vocabulary.h"

namespace companyos::a11y {

bool WindowInfo::active() const { return has_state(states, ATSPI_STATE_ACTIVE); }

namespace {

// A page the window shows: a background tab's document is not waited for.
bool is_shown_web_document(const Snapshot& tree, const Node& node) {
  return node.role == ATSPI_ROLE_DOCUMENT_WEB &&
         (!tree.showing_means_on_screen || has_state(node.states, ATSPI_STATE_SHOWING));
}

}  // namespace

bool holds_web_document(const Snapshot& tree) {
  for (const Node& node : tree.nodes) {
    if (is_shown_web_document(tree, node)) return true;
  }
  return false;
}

bool web_document_expected(const Snapshot& tree) {
  return tree.frames_show_web_pages && !tree.nodes.empty() && tree.nodes.front().role == ATSPI_ROLE_FRAME;
}

bool web_document_incomplete(const Snapshot& tree) {
  if (web_document_expected(tree) && !holds_web_document(tree)) return true;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const Node& node = tree.nodes[i];
    if (!is_shown_web_document(tree, node)) continue;
    if (has_state(node.states, ATSPI_STATE_BUSY)) return true;
    // Nothing in it yet: the blank document a browser shows before the page's (Chromium,
    // measured: a nameless empty document at 0.3 s, the form at 1.0 s). A page that is
    // really empty waits out the bound and is said to be still loading.
    if (node.children.empty()) return true;
    bool controls = false;
    bool controls_showing = false;
    for (std::size_t j = i + 1; j < tree.nodes.size() && lies_under(tree, j, i); ++j) {
      const Node& control = tree.nodes[j];
      if (!has_state(control.states, ATSPI_STATE_FOCUSABLE)) continue;
      controls = true;
      if (!has_state(control.states, ATSPI_STATE_SHOWING)) continue;
      controls_showing = true;
      if ((control.interfaces & kInterfaceAction) != 0 && control.actions.empty()) return true;
    }
    // Shown, with controls none of which is showing: not painted yet (Firefox, measured).
    if (controls && !controls_showing) return true;
  }
  return false;
}

bool lies_under(const Snapshot& tree, std::size_t index, std::size_t ancestor) {
  for (int parent = tree.nodes[index].parent; parent >= 0;
       parent = tree.nodes[static_cast<std::size_t>(parent)].parent) {
    if (static_cast<std::size_t>(parent) == ancestor) return true;
  }
  return false;
}

}  // namespace companyos::a11y
