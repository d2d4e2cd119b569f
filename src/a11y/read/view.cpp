#include "a11y/view.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include <atspi/atspi.h>

namespace companyos::a11y {
namespace {

class ViewBuilder {
 public:
  ViewBuilder(const std::vector<Node>& nodes, const ViewOptions& options)
      : nodes_(nodes), options_(options), kept_(nodes.size(), true), not_showing_(nodes.size(), 0) {
    if (options.interactive) mark_interactive();
  }

  ViewNode build() {
    const bool has_root = options_.root >= 0 && static_cast<std::size_t>(options_.root) < nodes_.size();
    ViewNode root{has_root ? options_.root : 0, {}, 0, has_root ? not_showing_[static_cast<std::size_t>(options_.root)] : 0};
    if (has_root) fill(root, 0);
    return root;
  }

 private:
  // Keeps actionable nodes and every ancestor of one; the view's root always stays.
  void mark_interactive() {
    std::fill(kept_.begin(), kept_.end(), false);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (!is_actionable(nodes_[i], options_.ignored_actions)) continue;
      int keep_from = static_cast<int>(i);
      if (options_.fold_not_showing) {
        keep_from = nearest_showing(keep_from);
        if (keep_from != static_cast<int>(i)) ++not_showing_[static_cast<std::size_t>(keep_from)];
      }
      for (int at = keep_from; at >= 0 && !kept_[static_cast<std::size_t>(at)];
           at = nodes_[static_cast<std::size_t>(at)].parent) {
        kept_[static_cast<std::size_t>(at)] = true;
      }
    }
    if (!kept_.empty()) kept_[0] = true;
    if (options_.root >= 0 && static_cast<std::size_t>(options_.root) < kept_.size()) {
      kept_[static_cast<std::size_t>(options_.root)] = true;
    }
  }

  // The node itself when it is showing (or is the view's root or the window), else its
  // nearest ancestor that is.
  int nearest_showing(int index) const {
    int at = index;
    while (at > 0 && at != options_.root &&
           !has_state(nodes_[static_cast<std::size_t>(at)].states, ATSPI_STATE_SHOWING)) {
      at = nodes_[static_cast<std::size_t>(at)].parent;
    }
    return at < 0 ? 0 : at;
  }

  std::vector<int> kept_children(int index) const {
    std::vector<int> kids;
    for (int child : nodes_[static_cast<std::size_t>(index)].children) {
      if (kept_[static_cast<std::size_t>(child)]) kids.push_back(child);
    }
    return kids;
  }

  bool is_wrapper(int index, std::size_t kept_child_count) const {
    const Node& node = nodes_[static_cast<std::size_t>(index)];
    const bool children_fold = kept_child_count == 1 ||
                               (options_.fold_nameless_groups && kept_child_count > 1 &&
                                not_showing_[static_cast<std::size_t>(index)] == 0);
    return index != 0 && index != options_.root && children_fold && node.name.empty() &&
           is_wrapper_role(node.role) && !is_actionable(node, options_.ignored_actions);
  }

  std::size_t count_kept_subtree(int index) const {
    std::size_t count = 1;
    for (int child : kept_children(index)) count += count_kept_subtree(child);
    return count;
  }

  // Semantic levels: the window is 0 and each node is one deeper than its parent, except
  // below a wrapper, which shares its child's level (wrapper and child are one level).
  void fill(ViewNode& view, int level) {
    const auto kids = kept_children(view.node);
    const bool wrapper = is_wrapper(view.node, kids.size());
    for (int child : kids) add_child(view, child, wrapper ? level : level + 1);
  }

  void add_child(ViewNode& parent_view, int index, int level) {
    if (options_.max_depth && level > *options_.max_depth) {
      parent_view.hidden += count_kept_subtree(index);
      return;
    }
    const auto kids = kept_children(index);
    if (options_.compact && is_wrapper(index, kids.size())) {
      for (int kid : kids) add_child(parent_view, kid, level);
      return;
    }
    ViewNode view{index, {}, 0, not_showing_[static_cast<std::size_t>(index)]};
    if (const int earlier = repeated_menu_bar(index); earlier >= 0) {
      view.same_as = earlier;
      view.not_showing = 0;
    } else {
      fill(view, level);
    }
    parent_view.children.push_back(std::move(view));
  }

  // The menu bar listed before that has the same menus as this one, else -1 (and this one
  // is remembered). Only menu bars with menus count.
  int repeated_menu_bar(int index) {
    const Node& node = nodes_[static_cast<std::size_t>(index)];
    if (!options_.fold_repeated_menu_bars || node.role != ATSPI_ROLE_MENU_BAR || node.children.empty()) return -1;
    std::string menus;
    for (int child : node.children) {
      const Node& menu = nodes_[static_cast<std::size_t>(child)];
      menus += std::to_string(menu.role);
      menus.push_back('\0');
      menus += menu.name;
      menus.push_back('\0');
    }
    const auto [seen, first] = menu_bars_.try_emplace(std::move(menus), index);
    return first ? -1 : seen->second;
  }

  const std::vector<Node>& nodes_;
  const ViewOptions& options_;
  std::vector<bool> kept_;
  std::vector<std::size_t> not_showing_;  // per node: actionable descendants folded into it
  std::map<std::string, int> menu_bars_;  // menus of each menu bar listed → its index
};

// GTK 4 lists its text widgets' own actions on every label — clipboard.copy, cut and
// paste, selection.delete and select-all, link.open and copy, menu.popup — whether or not
// the label has a selection or a link (measured: every label of GNOME Calculator).
bool is_label_widget_action(std::string_view action) {
  return action.starts_with("clipboard.") || action.starts_with("selection.") ||
         action.starts_with("link.") || action == "menu.popup";
}

}  // namespace

bool is_actionable(const Node& node, const std::vector<std::string>& ignored) {
  if (node.role == ATSPI_ROLE_SEPARATOR) return false;
  for (const std::string& action : node.actions) {
    if (action == "focus" || action == "clickAncestor") continue;
    if (std::find(ignored.begin(), ignored.end(), action) != ignored.end()) continue;
    if (node.role == ATSPI_ROLE_LABEL && is_label_widget_action(action)) continue;
    return true;
  }
  return has_state(node.states, ATSPI_STATE_EDITABLE) ||
         has_state(node.states, ATSPI_STATE_SELECTABLE);
}

bool is_wrapper_role(std::uint32_t role) {
  switch (role) {
    case ATSPI_ROLE_FILLER:
    case ATSPI_ROLE_PANEL:
    case ATSPI_ROLE_SECTION:
    case ATSPI_ROLE_UNKNOWN:
    case ATSPI_ROLE_REDUNDANT_OBJECT:
    case ATSPI_ROLE_VIEWPORT:
    case ATSPI_ROLE_SCROLL_PANE:
    case ATSPI_ROLE_LAYERED_PANE:
    case ATSPI_ROLE_ROOT_PANE:
    case ATSPI_ROLE_GLASS_PANE:
    case ATSPI_ROLE_INVALID:
      return true;
    default:
      return false;
  }
}

ViewOptions filtered_view(bool interactive, bool compact, std::optional<int> max_depth) {
  ViewOptions options;
  options.interactive = interactive;
  options.compact = compact;
  options.max_depth = max_depth;
  return options;
}

ViewNode make_view(const std::vector<Node>& nodes, const ViewOptions& options) {
  return ViewBuilder(nodes, options).build();
}

}  // namespace companyos::a11y
