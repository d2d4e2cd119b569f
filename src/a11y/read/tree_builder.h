// Assembles one window's tree from a bulk read (GetItems) corrected by live reads, and
// decides what must be read live: a bulk reply can miss children (GTK3 never lists those
// added with gtk_box_pack_start), but its child counts are live, so a node whose count
// differs from the children listed under it has its children re-read, and every listed
// child without a record is walked. Pure bookkeeping: no D-Bus here.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "a11y/model.h"

namespace companyos::a11y {

// One node of the assembled tree, in depth-first order.
struct AssembledNode {
  const RawNode* raw = nullptr;
  int parent = -1;
  std::vector<int> children;
};

// What a tree still lacks before it can be trusted (see TreeBuilder::missing).
struct MissingParts {
  std::vector<std::string> reread;   // nodes whose children must be re-read live
  std::vector<std::string> unknown;  // listed children without a record: walk them
  std::size_t set_aside = 0;         // records under nodes whose bulk listing is set aside
};

class TreeBuilder {
 public:
  // Adds a record; a later record of the same path (a live read) replaces an earlier one.
  void add(RawNode node);
  void add_all(std::vector<RawNode> nodes);
  // The children of parent as read live, in order; they replace the bulk listing.
  void set_live_children(const std::string& parent, std::vector<std::string> children);

  bool has(const std::string& path) const;
  // The record of path, or nullptr.
  const RawNode* find(const std::string& path) const;
  // What a node too large to list shows (read/shown_region.h), its children set apart.
  void set_shown(const std::string& path, const ShownRegion& region);
  // Where a cell of such a node sits: on its record, whether already in (a bulk read's)
  // or added later (read live).
  void set_cell(const std::string& path, const CellPosition& cell);
  std::size_t cells_known() const { return cells_.size(); }
  std::size_t size() const { return nodes_.size(); }  // nodes known, bulk and live
  bool has_live_children(const std::string& path) const;
  // In one pass over the tree under root (root included):
  // - reread: nodes whose children were not yet read live and whose bulk listing cannot be
  //   trusted: the reported child count differs from the children listed (or is unknown,
  //   i.e. negative), or the listed children's indices are not exactly 0..n-1 (GTK3 gives a
  //   scrolled window's scroll bars indices that clash with its viewport's, so the order
  //   would be a guess);
  //   A node offering Table, or counting more than max_children children, is reread too
  //   however its listing looks, and what the bulk read listed under it is not walked: its
  //   live read checks its size first, and one too large is read by what it shows
  //   (Chromium's GetItems lists every row of a web table of 10,000);
  // - unknown: children listed under those nodes that have no record yet.
  // showing_only: nothing is missing under a node that is not showing (a closed menu's
  // items) unless it says it is defunct (which a listed node is not): its parts can never
  // be on screen, so a read for what can be leaves them as the bulk read listed them.
  MissingParts missing(const std::string& root, std::size_t max_children, bool showing_only = false) const;

  // Depth-first from root, children in order; at most max_nodes nodes; paths already
  // visited are skipped, so a malformed reply cannot loop.
  std::vector<AssembledNode> assemble(const std::string& root, std::size_t max_nodes) const;

 private:
  const std::vector<std::string>& children_of(const std::string& path) const;
  void index_bulk_children() const;

  std::unordered_map<std::string, RawNode> nodes_;
  std::unordered_map<std::string, std::vector<std::string>> live_children_;
  mutable std::unordered_map<std::string, std::vector<std::string>> bulk_children_;
  mutable std::unordered_set<std::string> misordered_;  // parents with clashing indices
  mutable bool bulk_indexed_ = false;
  std::unordered_map<std::string, CellPosition> cells_;  // by path (set_cell)
};

// Snapshot nodes (ref = position + 1, parent/children as indices) from an assembled tree;
// details (actions, bounds, value) and twins are filled in later.
std::vector<Node> to_nodes(const std::vector<AssembledNode>& assembled);

}  // namespace companyos::a11y
