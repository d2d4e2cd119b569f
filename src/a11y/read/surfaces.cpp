#include "a11y/surfaces.h"

#include <atspi/atspi.h>

namespace companyos::a11y {
namespace {

bool shows(const Node& node) { return has_state(node.states, ATSPI_STATE_SHOWING); }

int showing_children(const Snapshot& snapshot, const Node& node) {
  int count = 0;
  for (int child : node.children) {
    if (shows(snapshot.nodes[static_cast<std::size_t>(child)])) ++count;
  }
  return count;
}

bool says_closed(const Node& node) {
  return has_state(node.states, ATSPI_STATE_EXPANDABLE) && !has_state(node.states, ATSPI_STATE_EXPANDED);
}

bool is_menu_role(std::uint32_t role) { return role == ATSPI_ROLE_MENU || role == ATSPI_ROLE_POPUP_MENU; }

bool is_list_role(std::uint32_t role) {
  return role == ATSPI_ROLE_LIST_BOX || role == ATSPI_ROLE_LIST || role == ATSPI_ROLE_TREE ||
         role == ATSPI_ROLE_TREE_TABLE || role == ATSPI_ROLE_TABLE;
}

// What kind of surface NODE is when open, by its role and its parent's.
std::optional<SurfaceKind> kind_of(const Snapshot& snapshot, const Node& node) {
  if (is_menu_role(node.role)) return SurfaceKind::kMenu;
  if (node.role == ATSPI_ROLE_TOOL_TIP) return SurfaceKind::kTooltip;
  if (node.parent >= 0 && is_list_role(node.role) &&
      snapshot.nodes[static_cast<std::size_t>(node.parent)].role == ATSPI_ROLE_COMBO_BOX) {
    return SurfaceKind::kList;
  }
  return std::nullopt;
}

}  // namespace

std::vector<Surface> open_surfaces(const Snapshot& snapshot) {
  std::vector<Surface> found;
  for (std::size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const Node& node = snapshot.nodes[i];
    const auto kind = kind_of(snapshot, node);
    if (!kind || !shows(node)) continue;
    const int items = showing_children(snapshot, node);
    const bool top_level = i == 0;
    const Node* parent = top_level ? nullptr : &snapshot.nodes[static_cast<std::size_t>(node.parent)];
    // A menu that shows with none of its items showing is the closed entry of a menu bar
    // (GTK 3) or a submenu's item; a tooltip has no items to show.
    if (*kind != SurfaceKind::kTooltip && items == 0 && !top_level) continue;
    // A combo box or menu that says whether it is expanded is believed: Gecko keeps a
    // closed <select>'s list showing, with its selected option, and a closed menu bar
    // menu's items showing (measured on Firefox ESR 153 after Escape: the menu drops
    // expanded, its items keep showing).
    const bool under_combo = parent != nullptr && parent->role == ATSPI_ROLE_COMBO_BOX;
    if (under_combo && says_closed(*parent)) continue;
    // Qt keeps a closed combo box's list and its items showing, at no size (measured on
    // Qt 5.15: 0x0 closed, the popup's size open); a list with no area is not open.
    if (*kind == SurfaceKind::kList && node.bounds && (node.bounds->width <= 0 || node.bounds->height <= 0)) continue;
    if (*kind == SurfaceKind::kMenu && says_closed(node)) continue;
    // A menu item or combo box above the surface opens it; where the menu itself lists
    // the action, it is its own entry (GTK 3's menu bar).
    const bool opened_from_above = parent != nullptr && (under_combo || parent->role == ATSPI_ROLE_MENU_ITEM);
    const int opener = top_level                               ? -1
                       : opened_from_above || node.actions.empty() ? node.parent
                                                                   : static_cast<int>(i);
    found.push_back(Surface{.node = static_cast<int>(i), .kind = *kind, .opener = opener, .items = items});
  }
  return found;
}

std::string_view to_string(SurfaceKind kind) {
  switch (kind) {
    case SurfaceKind::kMenu:
      return "menu";
    case SurfaceKind::kList:
      return "list";
    case SurfaceKind::kTooltip:
      return "tooltip";
  }
  return "menu";
}

Result<std::optional<SurfaceKind>> parse_surface_kind(const std::string& name, std::string_view param,
                                                      bool any_allowed) {
  if (any_allowed && name == "any") return std::optional<SurfaceKind>();
  if (auto kind = surface_kind_from(name)) return std::optional<SurfaceKind>(*kind);
  return make_error(ErrorCode::kInvalidArgs, "unknown surface kind \"" + name + "\"",
                    {{"param", param}, {"got", name}},
                    any_allowed ? "use menu, list, tooltip or any" : "use menu, list or tooltip");
}

std::optional<SurfaceKind> surface_kind_from(std::string_view name) {
  for (auto kind : {SurfaceKind::kMenu, SurfaceKind::kList, SurfaceKind::kTooltip}) {
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace companyos::a11y
