// Live reads of accessibles (never a cache): one node's role, name, description,
// accessible id, child count, states and interfaces, and its children in order. Started
// on a Pipeline, so many run at once; results arrive through the callbacks in wait().
//
// A node's children are listed only once its child count (and, for a Table, its rows and
// columns) is known to be within the bound: GetChildren on a spreadsheet that claims
// 2,147,483,647 children makes LibreOffice build every one of them, and it stops answering
// anyone for minutes. Past the bound the node is reported as too large to list, and the
// caller reads what it shows instead (read/shown_region.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "a11y/bus/pipeline.h"
#include "a11y/model.h"
#include "a11y/toolkit/traits.h"

namespace companyos::a11y {

// A node with more children than the bound, or a table with more cells: its size in all.
// A list is rows alone (columns == 0).
struct TooManyChildren {
  std::int64_t rows = 0;
  std::int64_t columns = 0;
  friend bool operator==(const TooManyChildren&, const TooManyChildren&) = default;
};

// What listing a node's children found: their paths, or that there are too many to list.
struct ChildrenRead {
  std::vector<std::string> paths;
  std::optional<TooManyChildren> too_many;
};

struct LiveNode {
  RawNode node;
  std::vector<std::string> children;
  // The node answered, but its children did not (an error for GetChildren, or a count that
  // is no count): the node is read, its children are not known — not a node that is gone.
  bool children_unread = false;
  std::optional<TooManyChildren> too_many;  // children not listed: read what it shows
};

// nullopt when the node is gone or answered with an error; not called at all when the
// pipeline's deadline passed first.
using LiveNodeHandler = std::function<void(std::optional<LiveNode>)>;
using LiveChildrenHandler = std::function<void(std::optional<ChildrenRead>)>;

// Whether a node of COUNT children (and, for a Table, ROWS × COLUMNS cells) is too large to
// list under a bound of MAX_CHILDREN; nullopt when it may be listed.
std::optional<TooManyChildren> too_many_children(std::int64_t count, std::optional<std::int64_t> rows,
                                                 std::optional<std::int64_t> columns, std::size_t max_children);

// A Table's NRows and NColumns as the app answers them (nullopt: not answered), both read
// at once; DONE runs once, when both have answered.
using TableSizeHandler = std::function<void(std::optional<std::int64_t> rows, std::optional<std::int64_t> columns)>;
void read_table_size(Pipeline& pipeline, const std::string& path, TableSizeHandler done);

// The toolkit decides whether the Accessible properties come in one GetAll call. At most
// max_children children are listed; past that the node is TooManyChildren.
void read_node_live(Pipeline& pipeline, const std::string& path, const ToolkitTraits& toolkit,
                    LiveNodeHandler done, std::size_t max_children);
// The children of a node already read (its INTERFACES known), with its count read live
// first: a bulk record's count may be -1 ("manages its descendants") or out of date.
void read_children_live(Pipeline& pipeline, const std::string& path, std::uint32_t interfaces,
                        LiveChildrenHandler done, std::size_t max_children);

}  // namespace companyos::a11y
