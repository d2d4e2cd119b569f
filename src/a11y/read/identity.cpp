#include "a11y/read/identity.h"

#include <unordered_map>

namespace companyos::a11y {
namespace {

std::string key_of(const Node& node) {
  std::string key = std::to_string(node.role);
  // NUL separators cannot occur inside D-Bus strings, so keys cannot collide.
  for (const std::string* part : {&node.accessible_id, &node.name, &node.description}) {
    key.push_back('\0');
    key += *part;
  }
  return key;
}

}  // namespace

Identity identity_of(const Node& node) {
  return Identity{node.role, node.accessible_id, node.accessible_id_known, node.name,
                  node.description};
}

bool matches_identity(const Identity& saved, const Node& live) {
  return live.role == saved.role && live.name == saved.name &&
         live.description == saved.description &&
         (!saved.accessible_id_known || live.accessible_id == saved.accessible_id);
}

void mark_twins(std::vector<Node>& nodes) {
  std::unordered_map<std::string, std::vector<std::size_t>> groups;
  groups.reserve(nodes.size());
  std::vector<std::string> keys;
  keys.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    keys.push_back(key_of(nodes[i]));
    groups[keys.back()].push_back(i);
  }
  int next_group = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto& members = groups[keys[i]];
    Node& node = nodes[i];
    if (members.size() < 2) {
      node.twin = false;
      node.twin_group = 0;
      continue;
    }
    if (members.front() == i) ++next_group;
    node.twin = true;
    node.twin_group = members.front() == i ? next_group : nodes[members.front()].twin_group;
  }
}

}  // namespace companyos::a11y
