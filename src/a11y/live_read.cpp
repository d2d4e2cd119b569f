#include "a11y/live_read.h"

#include <memory>

#include "a11y/bulk_reply.h"
#include "a11y/bus.h"

namespace companyos::a11y {
namespace {

constexpr int kLiveParts = 5;

struct PendingLiveNode {
  LiveNode result;
  int outstanding = kLiveParts;
  bool failed = false;
  LiveNodeHandler done;
};

std::string lookup_string(GVariant* dict, const char* key) {
  VariantPtr value(g_variant_lookup_value(dict, key, G_VARIANT_TYPE_STRING));
  return value ? g_variant_get_string(value.get(), nullptr) : std::string();
}

}  // namespace

std::string property_string(GVariant* reply) {
  if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)"))) return {};
  VariantPtr value(g_variant_get_variant(child_of(reply, 0).get()));
  if (!g_variant_is_of_type(value.get(), G_VARIANT_TYPE_STRING)) return {};
  return g_variant_get_string(value.get(), nullptr);
}

void read_node_live(CallScope& scope, const Channel& channel, const std::string& path,
                    LiveNodeHandler done) {
  auto pending = std::make_shared<PendingLiveNode>();
  pending->result.node.path = path;
  pending->done = std::move(done);
  // Each part fills its field; the last one to answer hands the node on.
  auto part = [pending](auto fill) {
    return [pending, fill](GVariant* reply, const GError*) {
      if (reply == nullptr) {
        pending->failed = true;
      } else {
        fill(reply, pending->result);
      }
      if (--pending->outstanding == 0) {
        pending->done(pending->failed ? std::nullopt : std::optional(std::move(pending->result)));
      }
    };
  };
  const char* p = path.c_str();
  scope.call(channel, p, kAccessibleInterface, "GetRole", nullptr,
             part([](GVariant* reply, LiveNode& live) {
               if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(u)"))) {
                 live.node.role = g_variant_get_uint32(child_of(reply, 0).get());
               }
             }));
  scope.call(channel, p, kPropertiesInterface, "GetAll",
             g_variant_new("(s)", kAccessibleInterface),
             part([](GVariant* reply, LiveNode& live) {
               if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(a{sv})"))) return;
               VariantPtr props = child_of(reply, 0);
               live.node.name = lookup_string(props.get(), "Name");
               live.node.description = lookup_string(props.get(), "Description");
               VariantPtr id(g_variant_lookup_value(props.get(), "AccessibleId",
                                                    G_VARIANT_TYPE_STRING));
               if (id) live.node.accessible_id = g_variant_get_string(id.get(), nullptr);
               VariantPtr count(
                   g_variant_lookup_value(props.get(), "ChildCount", G_VARIANT_TYPE_INT32));
               if (count) live.node.child_count = g_variant_get_int32(count.get());
             }));
  scope.call(channel, p, kAccessibleInterface, "GetState", nullptr,
             part([](GVariant* reply, LiveNode& live) {
               if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(au)"))) {
                 live.node.states = states_of(child_of(reply, 0).get());
               }
             }));
  scope.call(channel, p, kAccessibleInterface, "GetInterfaces", nullptr,
             part([](GVariant* reply, LiveNode& live) {
               if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(as)"))) {
                 live.node.interfaces = interface_bits_of(child_of(reply, 0).get());
               }
             }));
  scope.call(channel, p, kAccessibleInterface, "GetChildren", nullptr,
             part([](GVariant* reply, LiveNode& live) {
               if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(a(so))"))) {
                 live.children = object_paths_of(child_of(reply, 0).get());
               }
             }));
}

void read_children_live(CallScope& scope, const Channel& channel, const std::string& path,
                        LiveChildrenHandler done) {
  scope.call(channel, path.c_str(), kAccessibleInterface, "GetChildren", nullptr,
             [done = std::move(done)](GVariant* reply, const GError*) {
               if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(a(so))"))) {
                 done(std::nullopt);
                 return;
               }
               done(object_paths_of(child_of(reply, 0).get()));
             });
}

}  // namespace companyos::a11y
