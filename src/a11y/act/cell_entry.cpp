#include "a11y/act/cell_entry.h"

#include <atspi/atspi.h>


namespace companyos::a11y {

std::optional<InputLine> find_input_line(const Snapshot& window) {
  std::optional<InputLine> found;
  for (std::size_t i = 0; i < window.nodes.size(); ++i) {
    const Node& node = window.nodes[i];
    if (node.role != ATSPI_ROLE_PARAGRAPH || (node.interfaces & kInterfaceEditableText) == 0 ||
        !has_state(node.states, ATSPI_STATE_MULTI_LINE)) {
      continue;
    }
    int bar = node.parent;
    while (bar >= 0 && window.nodes[static_cast<std::size_t>(bar)].role != ATSPI_ROLE_TOOL_BAR) {
      bar = window.nodes[static_cast<std::size_t>(bar)].parent;
    }
    if (bar < 0) continue;
    const Node* accept = nullptr;
    for (int child : window.nodes[static_cast<std::size_t>(bar)].children) {
      const Node& candidate = window.nodes[static_cast<std::size_t>(child)];
      if (candidate.role == ATSPI_ROLE_PUSH_BUTTON && (candidate.interfaces & kInterfaceAction) != 0) {
        accept = &candidate;
      }
    }
    if (accept == nullptr) continue;
    if (found) return std::nullopt;  // two input lines: which one the cell uses is a guess
    found = InputLine{node.path, *accept};
  }
  return found;
}

Verification verify_cell_entry(std::string_view asked, const std::optional<std::string>& shown,
                               const std::optional<std::string>& formula, bool secret) {
  if (!asked.starts_with('=')) {
    Verification text = verify_text(asked, shown, secret);
    return text;
  }
  Verification result = verify_text(asked, formula, secret);
  result.check = "formula";
  return result;
}

}  // namespace companyos::a11y
