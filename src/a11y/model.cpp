#include "a11y/model.h"

#include <atspi/atspi.h>

namespace companyos::a11y {

bool WindowInfo::active() const { return has_state(states, ATSPI_STATE_ACTIVE); }

bool lies_under(const Snapshot& tree, std::size_t index, std::size_t ancestor) {
  for (int parent = tree.nodes[index].parent; parent >= 0;
       parent = tree.nodes[static_cast<std::size_t>(parent)].parent) {
    if (static_cast<std::size_t>(parent) == ancestor) return true;
  }
  return false;
}

}  // namespace companyos::a11y
