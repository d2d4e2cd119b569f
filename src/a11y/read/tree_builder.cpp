#include "a11y/read/tree_builder.h"

#include <atspi/atspi.h>

#include <algorithm>
#include <utility>

#include "a11y/vocabulary.h"

namespace companyos::a11y {

void TreeBuilder::add(RawNode node) {
  auto [entry, inserted] = nodes_.try_emplace(node.path);
  // Only a record that is, or was, listed under a bulk parent changes the bulk listing; a
  // node read live (no parent path) does not, so walking missing rows costs no re-index.
  if (!node.parent_path.empty() || (!inserted && !entry->second.parent_path.empty())) {
    bulk_indexed_ = false;
  }
  entry->second = std::move(node);  // in place: assembled nodes point at records
  if (!cells_.empty()) {
    if (auto cell = cells_.find(entry->first); cell != cells_.end()) entry->second.cell = cell->second;
  }
}

void TreeBuilder::add_all(std::vector<RawNode> nodes) {
  nodes_.reserve(nodes_.size() + nodes.size());
  for (auto& node : nodes) add(std::move(node));
}

void TreeBuilder::set_live_children(const std::string& parent,
                                    std::vector<std::string> children) {
  live_children_.insert_or_assign(parent, std::move(children));
}

bool TreeBuilder::has(const std::string& path) const { return nodes_.contains(path); }

const RawNode* TreeBuilder::find(const std::string& path) const {
  auto found = nodes_.find(path);
  return found == nodes_.end() ? nullptr : &found->second;
}

void TreeBuilder::set_shown(const std::string& path, const ShownRegion& region) {
  if (auto found = nodes_.find(path); found != nodes_.end()) found->second.shown = region;
}

void TreeBuilder::set_cell(const std::string& path, const CellPosition& cell) {
  cells_.insert_or_assign(path, cell);
  if (auto found = nodes_.find(path); found != nodes_.end()) found->second.cell = cell;
}

bool TreeBuilder::has_live_children(const std::string& path) const {
  return live_children_.contains(path);
}

void TreeBuilder::index_bulk_children() const {
  if (bulk_indexed_) return;
  bulk_children_.clear();
  misordered_.clear();
  std::unordered_map<std::string, std::vector<const RawNode*>> by_parent;
  for (const auto& [path, node] : nodes_) {
    if (!node.parent_path.empty() && node.parent_path != path) {
      by_parent[node.parent_path].push_back(&node);
    }
  }
  for (auto& [parent, kids] : by_parent) {
    std::stable_sort(kids.begin(), kids.end(), [](const RawNode* a, const RawNode* b) {
      return a->index_in_parent < b->index_in_parent;
    });
    auto& paths = bulk_children_[parent];
    paths.reserve(kids.size());
    for (std::size_t i = 0; i < kids.size(); ++i) {
      paths.push_back(kids[i]->path);
      if (kids[i]->index_in_parent != static_cast<int>(i)) misordered_.insert(parent);
    }
  }
  bulk_indexed_ = true;
}

const std::vector<std::string>& TreeBuilder::children_of(const std::string& path) const {
  static const std::vector<std::string> kNone;
  if (auto live = live_children_.find(path); live != live_children_.end()) return live->second;
  index_bulk_children();
  auto bulk = bulk_children_.find(path);
  return bulk == bulk_children_.end() ? kNone : bulk->second;
}

MissingParts TreeBuilder::missing(const std::string& root, std::size_t max_children, bool showing_only) const {
  MissingParts missing;
  std::unordered_set<std::string_view> seen;
  const auto assembled = assemble(root, nodes_.size() + 1);
  // Nodes under one whose bulk listing is set aside until it is read live.
  std::vector<bool> set_aside(assembled.size(), false);
  for (std::size_t i = 0; i < assembled.size(); ++i) {
    const AssembledNode& node = assembled[i];
    if (node.parent >= 0 && set_aside[static_cast<std::size_t>(node.parent)]) {
      set_aside[i] = true;
      ++missing.set_aside;
      continue;
    }
    const RawNode& raw = *node.raw;
    // A node listed alive that says it is defunct tells nothing of the screen: LibreOffice's
    // Calc marks its input line's panel so, and shows the input line under it.
    if (showing_only && !has_state(raw.states, ATSPI_STATE_SHOWING) && !has_state(raw.states, ATSPI_STATE_DEFUNCT)) {
      continue;
    }
    const auto& children = children_of(raw.path);
    if (!has_live_children(raw.path)) {
      const bool maybe_too_many = (raw.interfaces & kInterfaceTable) != 0 ||
                                  (raw.child_count > 0 && static_cast<std::size_t>(raw.child_count) > max_children);
      if (maybe_too_many) {
        missing.reread.push_back(raw.path);
        set_aside[i] = true;
        continue;
      }
      // A negative count (GTK3 sends -1 for nodes that manage their descendants) is unknown.
      if (raw.child_count < 0 || static_cast<std::size_t>(raw.child_count) != children.size() ||
          misordered_.contains(raw.path)) {
        missing.reread.push_back(raw.path);
      }
    }
    for (const std::string& child : children) {
      if (!has(child) && seen.insert(child).second) missing.unknown.push_back(child);
    }
  }
  return missing;
}

std::vector<AssembledNode> TreeBuilder::assemble(const std::string& root,
                                                 std::size_t max_nodes) const {
  std::vector<AssembledNode> out;
  auto root_it = nodes_.find(root);
  if (root_it == nodes_.end() || max_nodes == 0) return out;
  std::unordered_set<std::string_view> visited;
  // Explicit stack of (path, parent index) so deep trees cannot exhaust the call stack;
  // children are pushed in reverse to pop in order.
  std::vector<std::pair<const RawNode*, int>> stack{{&root_it->second, -1}};
  while (!stack.empty() && out.size() < max_nodes) {
    auto [raw, parent] = stack.back();
    stack.pop_back();
    if (!visited.insert(raw->path).second) continue;
    const int index = static_cast<int>(out.size());
    out.push_back(AssembledNode{raw, parent, {}});
    if (parent >= 0) out[static_cast<std::size_t>(parent)].children.push_back(index);
    const auto& kids = children_of(raw->path);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) {
      auto child = nodes_.find(*it);
      if (child != nodes_.end() && !visited.contains(child->second.path)) {
        stack.emplace_back(&child->second, index);
      }
    }
  }
  return out;
}

std::vector<Node> to_nodes(const std::vector<AssembledNode>& assembled) {
  std::vector<Node> nodes(assembled.size());
  for (std::size_t i = 0; i < assembled.size(); ++i) {
    const RawNode& raw = *assembled[i].raw;
    Node& node = nodes[i];
    node.ref = static_cast<int>(i) + 1;
    node.role = raw.role;
    node.name = raw.name;
    node.description = raw.description;
    node.accessible_id = raw.accessible_id.value_or(std::string());
    node.accessible_id_known = raw.accessible_id.has_value();
    node.states = raw.states;
    node.interfaces = raw.interfaces;
    node.parent = assembled[i].parent;
    node.children = assembled[i].children;
    node.path = raw.path;
    node.shown = raw.shown;
    node.cell = raw.cell;
  }
  return nodes;
}

}  // namespace companyos::a11y
