#include "a11y/bus/variant_fields.h"

#include "core/glib_handles.h"

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
  if (!g_variant_is_of_type(names, G_VARIANT_TYPE("as"))) return bits;
  const gsize count = g_variant_n_children(names);
  for (gsize i = 0; i < count; ++i) {
    VariantPtr name = child_of(names, i);
    bits |= interface_bit(g_variant_get_string(name.get(), nullptr));
  }
  return bits;
}

StateSet states_of(GVariant* words) {
  if (!g_variant_is_of_type(words, G_VARIANT_TYPE("au"))) return 0;
  gsize count = 0;
  const auto* data = static_cast<const std::uint32_t*>(
      g_variant_get_fixed_array(words, &count, sizeof(std::uint32_t)));
  return state_set_from_words(data, count);
}

VariantPtr property_value(GVariant* reply) {
  if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)"))) return nullptr;
  return VariantPtr(g_variant_get_variant(child_of(reply, 0).get()));
}

std::string property_string(GVariant* reply) {
  const VariantPtr value = property_value(reply);
  if (!value || !g_variant_is_of_type(value.get(), G_VARIANT_TYPE_STRING)) return {};
  return string_of(value.get());
}

}  // namespace companyos::a11y
