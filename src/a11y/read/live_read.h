// Live reads of accessibles (never a cache): one node's role, name, description,
// accessible id, child count, states and interfaces, and its children in order. Started
// on a Pipeline, so many run at once; results arrive through the callbacks in wait().
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "a11y/bus/pipeline.h"
#include "a11y/model.h"
#include "a11y/toolkit/traits.h"

namespace companyos::a11y {

struct LiveNode {
  RawNode node;
  std::vector<std::string> children;
  // The node answered, but its children did not (an error for GetChildren): the node is
  // read, its children are not known — not a node that is gone.
  bool children_unread = false;
};

// nullopt when the node is gone or answered with an error; not called at all when the
// pipeline's deadline passed first.
using LiveNodeHandler = std::function<void(std::optional<LiveNode>)>;
using LiveChildrenHandler = std::function<void(std::optional<std::vector<std::string>>)>;

// The toolkit decides whether the Accessible properties come in one GetAll call. At most
// max_children of a node's children are kept (more may exist: the caller cuts there).
inline constexpr std::size_t kAllChildren = static_cast<std::size_t>(-1);
void read_node_live(Pipeline& pipeline, const std::string& path, const ToolkitTraits& toolkit,
                    LiveNodeHandler done, std::size_t max_children = kAllChildren);
void read_children_live(Pipeline& pipeline, const std::string& path, LiveChildrenHandler done,
                        std::size_t max_children = kAllChildren);

}  // namespace companyos::a11y
