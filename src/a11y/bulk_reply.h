// Parses org.a11y.atspi.Cache.GetItems replies, signature (a((so)(so)(so)iiassusau)):
// path, app, parent, index in parent, child count, interfaces, name, role, description,
// states. Fields are read directly from the GVariant, not through per-item format strings.
#pragma once

#include <vector>

#include <glib.h>

#include "a11y/model.h"
#include "core/result.h"

namespace companyos::a11y {

inline constexpr const char* kGetItemsReplyType = "(a((so)(so)(so)iiassusau))";

// INTERNAL error when the reply does not have the GetItems signature.
Result<std::vector<RawNode>> parse_get_items(GVariant* reply);

// One (so) reference's object path, or "" when the variant is not a reference.
std::string object_path_of(GVariant* reference);
// Object paths of an a(so) array (GetChildren's reply element).
std::vector<std::string> object_paths_of(GVariant* references);
// interface names (as) → InterfaceBit set.
std::uint32_t interface_bits_of(GVariant* names);
// au → state bits.
StateSet states_of(GVariant* words);

}  // namespace companyos::a11y
