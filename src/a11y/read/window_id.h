// Window ids are opaque and stable for the window's life: "w" followed by 12 hex digits of
// the 64-bit FNV-1a hash of "<app bus name>|<window object path>". Neither part changes
// while the window exists, and a unique bus name is never reused on a bus.
#pragma once

#include <string>
#include <string_view>

namespace companyos::a11y {

std::string window_id(std::string_view bus_name, std::string_view object_path);

}  // namespace companyos::a11y
