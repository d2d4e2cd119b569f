// Menus, popups, drop-down lists and tooltips that are open now: the transient surfaces an
// action opens. Toolkits show them differently — GTK 3 keeps every menu in the window's tree
// and shows its items only while it is open; Qt adds a popup menu under its menu item and
// marks it showing; Gecko copies an open <select>'s options into a list of its own; some
// toolkits make a popup a top-level of its own — so a surface is found by one rule that
// holds for all of them: a menu-like node is open when it shows and so does one of its
// items, and a combo box's list when it also has an area (Qt keeps a closed one showing at
// 0x0) (docs/toolkits.md, "Menus and popups").
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "a11y/model.h"
#include "companyos/result.h"

namespace companyos::a11y {

enum class SurfaceKind {
  kMenu,     // a menu or popup menu (GTK 3 menus, Qt popup menus, GTK 4 popover menus)
  kList,     // a combo box's drop-down list
  kTooltip,  // a tooltip
};

struct Surface {
  int node = 0;     // index into Snapshot::nodes of the surface's own node
  SurfaceKind kind = SurfaceKind::kMenu;
  // The element that opens it: the menu item or combo box above it, or the menu itself
  // where the menu is its own entry (GTK 3); -1 for a top-level surface.
  int opener = -1;
  int items = 0;    // its showing children
};

// The surfaces open in one window's snapshot, in document order (a submenu after its
// menu). A window that is itself a menu, popup menu or tooltip is one surface.
std::vector<Surface> open_surfaces(const Snapshot& snapshot);

std::string_view to_string(SurfaceKind kind);
// "menu", "list", "tooltip"; nullopt otherwise.
std::optional<SurfaceKind> surface_kind_from(std::string_view name);
// A kind a caller names in PARAM: "menu", "list", "tooltip", and "any" (nullopt: every
// kind) where any_allowed; INVALID_ARGS naming the param otherwise.
Result<std::optional<SurfaceKind>> parse_surface_kind(const std::string& name, std::string_view param,
                                                      bool any_allowed);

}  // namespace companyos::a11y
