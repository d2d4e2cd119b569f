#include "a11y/read/embedded_objects.h"

#include <string_view>

namespace companyos::a11y {
namespace {

constexpr std::string_view kObjectReplacement = "\xEF\xBF\xBC";  // U+FFFC in UTF-8

std::size_t count_replacements(std::string_view text) {
  std::size_t count = 0;
  for (auto at = text.find(kObjectReplacement); at != std::string_view::npos;
       at = text.find(kObjectReplacement, at + kObjectReplacement.size())) {
    ++count;
  }
  return count;
}

std::string text_of(const Node& child) {
  if (child.value && !child.value->empty()) return *child.value;
  return child.name;
}

std::string with_children_in_place(std::string_view text, const std::vector<Node>& nodes,
                                   const std::vector<int>& children) {
  std::string result;
  std::size_t next_child = 0;
  std::size_t from = 0;
  for (auto at = text.find(kObjectReplacement); at != std::string_view::npos;
       at = text.find(kObjectReplacement, from)) {
    result.append(text.substr(from, at - from));
    result += text_of(nodes[static_cast<std::size_t>(children[next_child++])]);
    from = at + kObjectReplacement.size();
  }
  result.append(text.substr(from));
  return result;
}

}  // namespace

std::string without_object_replacements(std::string text) {
  for (auto at = text.find(kObjectReplacement); at != std::string::npos; at = text.find(kObjectReplacement, at)) {
    text.erase(at, kObjectReplacement.size());
  }
  return text;
}

void resolve_embedded_objects(std::vector<Node>& nodes) {
  // Children before parents: a nested section's text is resolved before its parent uses it.
  for (std::size_t i = nodes.size(); i-- > 0;) {
    Node& node = nodes[i];
    if (!node.value) continue;
    const std::size_t replacements = count_replacements(*node.value);
    if (replacements == 0) continue;
    bool children_read = replacements == node.children.size();
    for (int child : node.children) {
      children_read = children_read && child > static_cast<int>(i) && child < static_cast<int>(nodes.size());
    }
    node.value = children_read ? with_children_in_place(*node.value, nodes, node.children)
                               : without_object_replacements(std::move(*node.value));
  }
}

}  // namespace companyos::a11y
