// Live reads of accessibles (never a cache): one node's role, name, description,
// accessible id, child count, states and interfaces, and its children in order. Started
// in a CallScope, so many run at once; results arrive through the callbacks in wait().
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "a11y/call_scope.h"
#include "a11y/model.h"

namespace companyos::a11y {

struct LiveNode {
  RawNode node;
  std::vector<std::string> children;
};

// nullopt when the node is gone or did not answer (scope.expired() tells which).
using LiveNodeHandler = std::function<void(std::optional<LiveNode>)>;
using LiveChildrenHandler = std::function<void(std::optional<std::vector<std::string>>)>;

void read_node_live(CallScope& scope, const Channel& channel, const std::string& path,
                    LiveNodeHandler done);
void read_children_live(CallScope& scope, const Channel& channel, const std::string& path,
                        LiveChildrenHandler done);

// The string in a Properties.Get reply ((v) holding s), or "" when it is something else.
std::string property_string(GVariant* reply);

}  // namespace companyos::a11y
