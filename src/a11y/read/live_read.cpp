#include "a11y/read/live_read.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"

namespace companyos::a11y {
namespace {

// A child count not read yet: GetAll may leave ChildCount out.
constexpr int kCountUnknown = std::numeric_limits<int>::min();

struct PendingLiveNode {
  LiveNode result;
  int outstanding = 0;
  bool failed = false;
  LiveNodeHandler done;
};

void list_or_refuse(Pipeline& pipeline, const std::string& path, std::int64_t count,
                    std::optional<std::int64_t> rows, std::optional<std::int64_t> columns,
                    std::size_t max_children, LiveChildrenHandler done) {
  if (auto too_many = too_many_children(count, rows, columns, max_children)) {
    done(ChildrenRead{{}, too_many});
    return;
  }
  if (count == 0) {
    done(ChildrenRead{});
    return;
  }
  pipeline.call(path.c_str(), kAccessibleInterface, "GetChildren",
                [done = std::move(done), max_children](sd_bus_message* reply) {
                  auto paths = error_name(reply) == nullptr ? read_reference_paths(reply, max_children)
                                                            : std::nullopt;
                  if (!paths) {
                    done(std::nullopt);
                    return;
                  }
                  done(ChildrenRead{std::move(*paths), std::nullopt});
                });
}

// Lists the children of a node whose COUNT is known, a Table's rows and columns read first.
void list_children(Pipeline& pipeline, const std::string& path, std::int64_t count, std::uint32_t interfaces,
                   std::size_t max_children, LiveChildrenHandler done) {
  if (count < 0) {  // no count at all: nothing says listing is safe
    done(std::nullopt);
    return;
  }
  if ((interfaces & kInterfaceTable) == 0) {
    list_or_refuse(pipeline, path, count, std::nullopt, std::nullopt, max_children, std::move(done));
    return;
  }
  read_table_size(pipeline, path,
                  [&pipeline, path, count, max_children, done = std::move(done)](
                      std::optional<std::int64_t> rows, std::optional<std::int64_t> columns) mutable {
                    list_or_refuse(pipeline, path, count, rows, columns, max_children, std::move(done));
                  });
}

void read_child_count(Pipeline& pipeline, const std::string& path,
                      std::function<void(std::optional<std::int64_t>)> done) {
  pipeline.call(path.c_str(), kPropertiesInterface, "Get",
                [done = std::move(done)](sd_bus_message* reply) {
                  done(error_name(reply) == nullptr ? read_variant_int32(reply) : std::nullopt);
                },
                "ss", kAccessibleInterface, "ChildCount");
}

void list_children_of(Pipeline& pipeline, std::shared_ptr<PendingLiveNode> pending, std::size_t max_children) {
  Pipeline* on = &pipeline;
  auto finish = [pending](std::optional<ChildrenRead> children) {
    if (!children) {
      pending->result.children_unread = true;
    } else {
      pending->result.children = std::move(children->paths);
      pending->result.too_many = children->too_many;
    }
    pending->done(std::optional(std::move(pending->result)));
  };
  const RawNode& node = pending->result.node;
  if (node.child_count != kCountUnknown) {
    list_children(pipeline, node.path, node.child_count, node.interfaces, max_children, std::move(finish));
    return;
  }
  read_child_count(pipeline, node.path, [on, pending, max_children, finish](std::optional<std::int64_t> count) mutable {
    if (!count) {
      finish(std::nullopt);
      return;
    }
    pending->result.node.child_count = static_cast<int>(*count);
    list_children(*on, pending->result.node.path, *count, pending->result.node.interfaces, max_children,
                  std::move(finish));
  });
}

}  // namespace

void read_table_size(Pipeline& pipeline, const std::string& path, TableSizeHandler done) {
  struct TableSize {
    std::optional<std::int64_t> rows;
    std::optional<std::int64_t> columns;
    int outstanding = 2;
    TableSizeHandler done;
  };
  auto size = std::make_shared<TableSize>();
  size->done = std::move(done);
  for (auto [property, field] : {std::pair{"NRows", &TableSize::rows}, std::pair{"NColumns", &TableSize::columns}}) {
    pipeline.call(path.c_str(), kPropertiesInterface, "Get",
                  [size, field = field](sd_bus_message* reply) {
                    if (error_name(reply) == nullptr) {
                      if (auto value = read_variant_int32(reply)) (*size).*field = *value;
                    }
                    if (--size->outstanding > 0) return;
                    size->done(size->rows, size->columns);
                  },
                  "ss", kTableInterface, property);
  }
}

std::optional<TooManyChildren> too_many_children(std::int64_t count, std::optional<std::int64_t> rows,
                                                 std::optional<std::int64_t> columns, std::size_t max_children) {
  const auto bound = static_cast<std::int64_t>(
      std::min<std::size_t>(max_children, static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())));
  // Each is an int32 on the wire, so the product cannot overflow; a negative one is no size.
  const bool table = rows && columns && *rows >= 0 && *columns >= 0;
  const bool too_many_cells = table && *rows * *columns > bound;
  if (!too_many_cells && count <= bound) return std::nullopt;
  if (table) return TooManyChildren{*rows, *columns};
  return TooManyChildren{count, 0};
}

void read_node_live(Pipeline& pipeline, const std::string& path, const ToolkitTraits& toolkit,
                    LiveNodeHandler done, std::size_t max_children) {
  auto pending = std::make_shared<PendingLiveNode>();
  pending->result.node.path = path;
  pending->result.node.child_count = kCountUnknown;
  pending->done = std::move(done);
  // Each part fills its field; the last one to answer lists the children (which needs the
  // count and interfaces) and then hands the node on. A part that answers with an error
  // (or the wrong shape) fails the node.
  Pipeline* on = &pipeline;
  auto part = [pending, on, max_children](auto fill) {
    ++pending->outstanding;
    return [pending, on, max_children, fill](sd_bus_message* reply) {
      if (error_name(reply) != nullptr || !fill(reply, pending->result)) pending->failed = true;
      if (--pending->outstanding > 0) return;
      if (pending->failed) {
        pending->done(std::nullopt);
        return;
      }
      list_children_of(*on, pending, max_children);
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
    // A count that cannot be read does not fail the node: it is read again, then its
    // children are unknown.
    pipeline.call(p, kPropertiesInterface, "Get",
                  part([](sd_bus_message* reply, LiveNode& live) {
                    if (auto count = read_variant_int32(reply)) live.node.child_count = *count;
                    return true;
                  }),
                  "ss", kAccessibleInterface, "ChildCount");
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
}

void read_children_live(Pipeline& pipeline, const std::string& path, std::uint32_t interfaces,
                        LiveChildrenHandler done, std::size_t max_children) {
  Pipeline* on = &pipeline;
  read_child_count(pipeline, path, [on, path, interfaces, max_children, done = std::move(done)](
                                       std::optional<std::int64_t> count) mutable {
    if (!count) {
      done(std::nullopt);
      return;
    }
    list_children(*on, path, *count, interfaces, max_children, std::move(done));
  });
}

}  // namespace companyos::a11y
