#include "a11y/act/cell_entry.h"

#include <atspi/atspi.h>

#include <algorithm>
#include <cctype>
#include <string>


namespace companyos::a11y {

std::optional<double> plain_number(std::string_view text) {
  constexpr std::size_t kSignificantDigits = 15;
  std::string_view digits = text;
  if (digits.starts_with('-')) digits.remove_prefix(1);
  const std::size_t point = digits.find('.');
  const std::string_view whole = digits.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? std::string_view() : digits.substr(point + 1);
  const auto all_digits = [](std::string_view part) {
    return std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  };
  if (whole.empty() || !all_digits(whole) || !all_digits(fraction)) return std::nullopt;
  if (whole.size() > 1 && whole.front() == '0') return std::nullopt;
  if (point != std::string_view::npos && (fraction.empty() || fraction.back() == '0')) return std::nullopt;
  if (text == "-0") return std::nullopt;
  const std::string all = std::string(whole) + std::string(fraction);
  if (all.size() - std::min(all.find_first_not_of('0'), all.size()) > kSignificantDigits) return std::nullopt;
  return parse_number(text);
}

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
