#include "a11y/bulk_reply.h"

#include "a11y/glib_handles.h"

namespace companyos::a11y {
namespace {

std::string string_of(GVariant* value) {
  gsize length = 0;
  const gchar* text = g_variant_get_string(value, &length);
  return std::string(text, length);
}

}  // namespace

std::string object_path_of(GVariant* reference) {
  if (!g_variant_is_of_type(reference, G_VARIANT_TYPE("(so)"))) return {};
  return string_of(child_of(reference, 1).get());
}

std::vector<std::string> object_paths_of(GVariant* references) {
  std::vector<std::string> paths;
  if (!g_variant_is_of_type(references, G_VARIANT_TYPE("a(so)"))) return paths;
  const gsize count = g_variant_n_children(references);
  paths.reserve(count);
  for (gsize i = 0; i < count; ++i) {
    paths.push_back(object_path_of(child_of(references, i).get()));
  }
  return paths;
}

std::uint32_t interface_bits_of(GVariant* names) {
  std::uint32_t bits = 0;
  const gsize count = g_variant_n_children(names);
  for (gsize i = 0; i < count; ++i) {
    VariantPtr name = child_of(names, i);
    bits |= interface_bit(g_variant_get_string(name.get(), nullptr));
  }
  return bits;
}

StateSet states_of(GVariant* words) {
  gsize count = 0;
  const auto* data = static_cast<const std::uint32_t*>(
      g_variant_get_fixed_array(words, &count, sizeof(std::uint32_t)));
  return state_set_from_words(data, count);
}

Result<std::vector<RawNode>> parse_get_items(GVariant* reply) {
  if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE(kGetItemsReplyType))) {
    return make_error(ErrorCode::kInternal, "GetItems reply has an unexpected signature",
                      {{"signature", reply ? g_variant_get_type_string(reply) : "none"}});
  }
  VariantPtr items = child_of(reply, 0);
  const gsize count = g_variant_n_children(items.get());
  std::vector<RawNode> nodes;
  nodes.reserve(count);
  for (gsize i = 0; i < count; ++i) {
    VariantPtr item = child_of(items.get(), i);
    RawNode node;
    node.path = object_path_of(child_of(item.get(), 0).get());
    node.parent_path = object_path_of(child_of(item.get(), 2).get());
    node.index_in_parent = g_variant_get_int32(child_of(item.get(), 3).get());
    node.child_count = g_variant_get_int32(child_of(item.get(), 4).get());
    node.interfaces = interface_bits_of(child_of(item.get(), 5).get());
    node.name = string_of(child_of(item.get(), 6).get());
    node.role = g_variant_get_uint32(child_of(item.get(), 7).get());
    node.description = string_of(child_of(item.get(), 8).get());
    node.states = states_of(child_of(item.get(), 9).get());
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace companyos::a11y
