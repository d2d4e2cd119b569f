#include "a11y/details.h"

#include <algorithm>
#include <charconv>

#include <atspi/atspi.h>

#include "a11y/bus.h"
#include "a11y/live_read.h"

namespace companyos::a11y {
namespace {

void read_bounds(CallScope& scope, const Channel& channel, Node& node) {
  scope.call(channel, node.path.c_str(), "org.a11y.atspi.Component", "GetExtents",
             g_variant_new("(u)", ATSPI_COORD_TYPE_SCREEN), [&node](GVariant* reply, const GError*) {
               if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("((iiii))"))) {
                 return;
               }
               // A fixed-size tuple: read its four int32s in place rather than creating a
               // child GVariant for each.
               const auto* raw = static_cast<const gint32*>(g_variant_get_data(reply));
               if (raw == nullptr || g_variant_get_size(reply) != 4 * sizeof(gint32)) return;
               const Bounds bounds{raw[0], raw[1], raw[2], raw[3]};
               // GTK3 reports offscreen nodes at INT_MIN: no position to give.
               if (bounds.x != G_MININT32 && bounds.y != G_MININT32) node.bounds = bounds;
             });
}

void store_action_name(Node& node, std::size_t index, GVariant* reply) {
  if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(s)"))) return;
  std::string name = g_variant_get_string(child_of(reply, 0).get(), nullptr);
  if (name.empty()) return;
  if (node.actions.size() <= index) node.actions.resize(index + 1);
  node.actions[index] = std::move(name);
}

// GetActions sends localized names ("Click", "Klicken"); GetName(i) the stable ones
// ("click") that actions are chosen by. Most nodes have one action, so GetName(0) goes out
// together with GetActions and only nodes with more actions need a second round.
void read_action_names(CallScope& scope, const Channel& channel, Node& node) {
  const char* path = node.path.c_str();
  scope.call(channel, path, "org.a11y.atspi.Action", "GetName", g_variant_new("(i)", 0),
             [&node](GVariant* reply, const GError*) { store_action_name(node, 0, reply); });
  scope.call(channel, path, "org.a11y.atspi.Action", "GetActions", nullptr,
             [&scope, channel, &node](GVariant* reply, const GError*) {
               if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(a(sss))"))) {
                 return;
               }
               const gsize count = g_variant_n_children(child_of(reply, 0).get());
               // Replies come in call order, so GetName(0) has already answered here.
               if (count == 0) node.actions.clear();
               for (gsize i = 1; i < count; ++i) {
                 scope.call(channel, node.path.c_str(), "org.a11y.atspi.Action", "GetName",
                            g_variant_new("(i)", static_cast<gint32>(i)),
                            [&node, i](GVariant* name, const GError*) {
                              store_action_name(node, i, name);
                            });
               }
             });
}

void read_accessible_id(CallScope& scope, const Channel& channel, Node& node) {
  scope.call(channel, node.path.c_str(), kPropertiesInterface, "Get",
             g_variant_new("(ss)", kAccessibleInterface, "AccessibleId"),
             [&node](GVariant* reply, const GError*) {
               if (reply == nullptr) return;
               node.accessible_id = property_string(reply);
               node.accessible_id_known = true;
             });
}

void read_value(CallScope& scope, const Channel& channel, Node& node) {
  scope.call(channel, node.path.c_str(), kPropertiesInterface, "Get",
             g_variant_new("(ss)", "org.a11y.atspi.Value", "CurrentValue"),
             [&node](GVariant* reply, const GError*) {
               if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)"))) return;
               VariantPtr value(g_variant_get_variant(child_of(reply, 0).get()));
               if (g_variant_is_of_type(value.get(), G_VARIANT_TYPE_DOUBLE)) {
                 node.value = format_value(g_variant_get_double(value.get()));
               }
             });
}

void read_text(CallScope& scope, const Channel& channel, Node& node, std::size_t limit) {
  scope.call(channel, node.path.c_str(), kPropertiesInterface, "Get",
             g_variant_new("(ss)", "org.a11y.atspi.Text", "CharacterCount"),
             [&scope, channel, &node, limit](GVariant* reply, const GError*) {
               if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)"))) return;
               VariantPtr count(g_variant_get_variant(child_of(reply, 0).get()));
               if (!g_variant_is_of_type(count.get(), G_VARIANT_TYPE_INT32)) return;
               const int characters = g_variant_get_int32(count.get());
               if (characters <= 0) {
                 node.value = std::string();
                 return;
               }
               const int end = static_cast<int>(
                   std::min<std::size_t>(static_cast<std::size_t>(characters), limit));
               scope.call(channel, node.path.c_str(), "org.a11y.atspi.Text", "GetText",
                          g_variant_new("(ii)", 0, end), [&node](GVariant* text, const GError*) {
                            if (text != nullptr && g_variant_is_of_type(text, G_VARIANT_TYPE("(s)"))) {
                              node.value = g_variant_get_string(child_of(text, 0).get(), nullptr);
                            }
                          });
             });
}

}  // namespace

std::string format_value(double value) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::string();
}

ValueSource value_source(std::uint32_t role, std::uint32_t interfaces) {
  if (is_password_role(role)) return ValueSource::kWithheld;
  if (interfaces & kInterfaceValue) return ValueSource::kValue;
  if (interfaces & kInterfaceText) return ValueSource::kText;
  return ValueSource::kNone;
}

void fetch_details(CallScope& scope, const Channel& channel, Node& node,
                   const DetailOptions& options) {
  if (node.interfaces & kInterfaceComponent) read_bounds(scope, channel, node);
  if (node.interfaces & kInterfaceAction) read_action_names(scope, channel, node);
  if (options.accessible_id) read_accessible_id(scope, channel, node);
  switch (value_source(node.role, node.interfaces)) {
    case ValueSource::kWithheld:
      node.value_withheld = true;
      break;
    case ValueSource::kValue:
      read_value(scope, channel, node);
      break;
    case ValueSource::kText:
      read_text(scope, channel, node, options.text_limit);
      break;
    case ValueSource::kNone:
      break;
  }
}

}  // namespace companyos::a11y
