#include "a11y/read/identity.h"

#include <algorithm>
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

// The node's ancestors from the root down, and the node itself last.
std::vector<int> chain_to(const std::vector<Node>& nodes, int index) {
  std::vector<int> chain;
  for (int at = index; at >= 0; at = nodes[static_cast<std::size_t>(at)].parent) chain.push_back(at);
  return {chain.rbegin(), chain.rend()};
}

std::size_t common_prefix(const std::vector<int>& a, const std::vector<int>& b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// Below the deepest ancestor the member shares with another member of its group, every
// ancestor holds this member alone; the highest of them that is unique itself is its scope.
void set_twin_scopes(std::vector<Node>& nodes, const std::vector<std::size_t>& members) {
  std::vector<std::vector<int>> chains;
  chains.reserve(members.size());
  for (std::size_t member : members) chains.push_back(chain_to(nodes, static_cast<int>(member)));
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::size_t shared = 0;
    for (std::size_t j = 0; j < members.size(); ++j) {
      if (j != i) shared = std::max(shared, common_prefix(chains[i], chains[j]));
    }
    Node& twin = nodes[members[i]];
    twin.twin_scope = -1;
    // chains[i][shared - 1] is where it meets another member; the last entry is itself.
    for (std::size_t k = shared; k + 1 < chains[i].size(); ++k) {
      const int candidate = chains[i][k];
      if (!nodes[static_cast<std::size_t>(candidate)].twin) {
        twin.twin_scope = candidate;
        break;
      }
    }
  }
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
  // Scopes need every node's twin mark, so they come second.
  for (auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    if (members.size() > kMaxScopedTwinGroup) {
      for (std::size_t member : members) nodes[member].twin_scope = -1;
      continue;
    }
    set_twin_scopes(nodes, members);
  }
}

}  // namespace companyos::a11y
