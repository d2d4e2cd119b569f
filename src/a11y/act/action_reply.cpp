#include "a11y/action_reply.h"

#include <atspi/atspi.h>

#include <string_view>

namespace companyos::a11y {
namespace {

// GTK pads menu item names with spaces; the ellipsis may be three dots or U+2026.
bool ends_in_ellipsis(std::string_view name) {
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  return name.ends_with("...") || name.ends_with("\u2026");
}

}  // namespace

bool says_it_opens_something(const Node& live, const Node* stored) {
  if (has_state(live.states, ATSPI_STATE_HAS_POPUP)) return true;
  if (live.role == ATSPI_ROLE_MENU || live.role == ATSPI_ROLE_COMBO_BOX) return true;
  if (live.role == ATSPI_ROLE_MENU_ITEM && stored != nullptr && !stored->children.empty()) return true;
  return ends_in_ellipsis(live.name);
}

}  // namespace companyos::a11y
