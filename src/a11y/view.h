// Views of a snapshot for output: -i (interactive), --compact and --max-depth filters.
// A view only selects and folds nodes; refs always come from the full tree.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "a11y/model.h"

namespace companyos::a11y {

struct ViewOptions {
  bool interactive = false;      // keep actionable nodes and their ancestors
  bool compact = false;          // fold nameless single-child wrappers into their child
  std::optional<int> max_depth;  // semantic levels below the root; wrappers are not levels
  int root = 0;                  // index of the node the view starts at (a surface's own node)
  // With interactive: an actionable node that is not showing (a closed menu's items, a
  // hidden tab's page, rows scrolled away) is not listed but counted on its nearest
  // showing ancestor — what a person could act on now, and how much more is behind it.
  // The agent view (-i --compact) sets it for toolkits whose showing state is reliable.
  bool fold_not_showing = false;
  // With compact: a nameless grouping node without actions of its own is folded whatever
  // its number of children — they are listed in its place, at its level. It names nothing
  // an agent can act on or tell apart (GNOME Calculator's view had 13 bare "panel" lines).
  // The agent view sets it.
  bool fold_nameless_groups = false;
  // Actions that do not make a node actionable: the ones its toolkit lists on every node.
  std::vector<std::string> ignored_actions;
  // A menu bar whose menus (role and name, in order) are those of one listed before is
  // listed without them, saying which it repeats: LibreOffice's GTK window has two.
  bool fold_repeated_menu_bars = false;
};

// The filters a caller names (snapshot's -i, --compact, --max-depth); the folds stay off.
ViewOptions filtered_view(bool interactive, bool compact, std::optional<int> max_depth);

struct ViewNode {
  int node = 0;                 // index into Snapshot::nodes
  std::vector<ViewNode> children;
  std::size_t hidden = 0;       // descendants cut by max_depth below this node
  std::size_t not_showing = 0;  // actionable descendants folded because they are not showing
  int same_as = -1;             // a repeated menu bar: index of the one it repeats
};

// Actionable: an action other than "focus" and Gecko's "clickAncestor" (which only passes
// a click up to an ancestor that is listed itself) — and, on a label, other than GTK 4's
// clipboard.*, selection.*, link.* and menu.popup — or editable, or selectable; never a
// separator (GTK 3 marks menu separators selectable).
// IGNORED: actions that do not count (ViewOptions::ignored_actions).
bool is_actionable(const Node& node, const std::vector<std::string>& ignored = {});
// A nameless node with exactly one child whose role only groups or scrolls (filler,
// panel, section, viewport, scroll pane, …): not a semantic level, folded by --compact.
bool is_wrapper_role(std::uint32_t role);

ViewNode make_view(const std::vector<Node>& nodes, const ViewOptions& options);

}  // namespace companyos::a11y
