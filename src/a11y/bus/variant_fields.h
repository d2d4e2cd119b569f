// Fields of AT-SPI replies received through GDBus (GVariant), for the calls that still go
// through GDBus: listing apps and windows, connecting to an app. Each returns an empty
// value when the variant does not have the expected type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glib.h>

#include "core/glib_handles.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {

// One (so) reference's object path.
std::string object_path_of(GVariant* reference);
// Object paths of an a(so) array (GetChildren's reply element).
std::vector<std::string> object_paths_of(GVariant* references);
// Interface names (as) → InterfaceBit set.
std::uint32_t interface_bits_of(GVariant* names);
// au → state bits.
StateSet states_of(GVariant* words);
// The value in a Properties.Get reply ((v)), owned; null when the reply is not one.
VariantPtr property_value(GVariant* reply);
// The string in a Properties.Get reply ((v) holding s).
std::string property_string(GVariant* reply);

}  // namespace companyos::a11y
