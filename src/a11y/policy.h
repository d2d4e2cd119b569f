// Observation policy: password managers are never observed (POLICY_DENIED), and the text of
// password-role elements is never read.
#pragma once

#include <string_view>

#include "companyos/result.h"

namespace companyos::a11y {

// Case-insensitive: the name, split at characters other than letters and digits, has a
// word starting with keepass, bitwarden, 1password, seahorse or pinentry (so KeePassXC,
// pinentry-gtk-2 and org.keepassxc.KeePassXC match).
bool is_password_manager(std::string_view app_name);

// POLICY_DENIED for password managers, ok otherwise.
Status check_observation_allowed(std::string_view app_name);

}  // namespace companyos::a11y
