#include "a11y/read/live_read.h"

#include <memory>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"

namespace companyos::a11y {
namespace {

struct PendingLiveNode {
  LiveNode result;
  int outstanding = 0;
  bool failed = false;
  LiveNodeHandler done;
};

}  // namespace

void read_node_live(Pipeline& pipeline, const std::string& path, const ToolkitTraits& toolkit,
                    LiveNodeHandler done, std::size_t max_children) {
  auto pending = std::make_shared<PendingLiveNode>();
  pending->result.node.path = path;
  pending->done = std::move(done);
  // Each part fills its field; the last one to answer hands the node on. A part that
  // answers with an error (or the wrong shape) fails the node.
  auto part = [pending](auto fill) {
    ++pending->outstanding;
    return [pending, fill](sd_bus_message* reply) {
      if (error_name(reply) != nullptr || !fill(reply, pending->result)) pending->failed = true;
      if (--pending->outstanding == 0) {
        pending->done(pending->failed ? std::nullopt : std::optional(std::move(pending->result)));
      }
    };
  };
  const char* p = path.c_str();
  pipeline.call(p, kAccessibleInterface, "GetRole", part([](sd_bus_message* reply, LiveNode& live) {
                  auto role = read_uint32(reply);
                  live.node.role = role.value_or(0);
                  return role.has_value();
                }));
  if (toolkit.accessible_properties_in_one_call) {
    pipeline.call(p, kPropertiesInterface, "GetAll",
                  part([](sd_bus_message* reply, LiveNode& live) {
                    return read_accessible_properties(reply, live.node);
                  }),
                  "s", kAccessibleInterface);
  } else {
    // The accessible id is left unknown: details read it where identity needs it.
    for (auto [property, field] : {std::pair{"Name", &RawNode::name},
                                   std::pair{"Description", &RawNode::description}}) {
      pipeline.call(p, kPropertiesInterface, "Get",
                    part([field = field](sd_bus_message* reply, LiveNode& live) {
                      auto text = read_variant_string(reply);
                      live.node.*field = text.value_or(std::string());
                      return text.has_value();
                    }),
                    "ss", kAccessibleInterface, property);
    }
  }
  pipeline.call(p, kAccessibleInterface, "GetState",
                part([](sd_bus_message* reply, LiveNode& live) {
                  auto states = read_state_set(reply);
                  live.node.states = states.value_or(0);
                  return states.has_value();
                }));
  pipeline.call(p, kAccessibleInterface, "GetInterfaces",
                part([](sd_bus_message* reply, LiveNode& live) {
                  auto interfaces = read_interface_bits(reply);
                  live.node.interfaces = interfaces.value_or(0);
                  return interfaces.has_value();
                }));
  // A part of its own: an app whose GetChildren fails (a ChildCount it cannot back up)
  // still has the node read; the caller is told its children are unknown.
  ++pending->outstanding;
  pipeline.call(p, kAccessibleInterface, "GetChildren", [pending, max_children](sd_bus_message* reply) {
    auto children = error_name(reply) == nullptr ? read_reference_paths(reply, max_children) : std::nullopt;
    if (children) {
      pending->result.children = std::move(*children);
    } else {
      pending->result.children_unread = true;
    }
    if (--pending->outstanding == 0) {
      pending->done(pending->failed ? std::nullopt : std::optional(std::move(pending->result)));
    }
  });
}

void read_children_live(Pipeline& pipeline, const std::string& path, LiveChildrenHandler done,
                        std::size_t max_children) {
  pipeline.call(path.c_str(), kAccessibleInterface, "GetChildren",
                [done = std::move(done), max_children](sd_bus_message* reply) {
                  done(error_name(reply) != nullptr ? std::nullopt : read_reference_paths(reply, max_children));
                });
}

}  // namespace companyos::a11y
