// The app a link opens in when the caller names none: the desktop's default for the link's
// scheme, as GIO answers it (x-scheme-handler/<scheme>: the person's choice in
// mimeapps.list, else the first entry that declares the scheme) — the app every other link
// opener on the desktop would pick. It is given as its desktop-file id, which the launch
// step then matches and checks as any named app (its rules and refusals unchanged).
#pragma once

#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::launch {

// The desktop-file id ("firefox-esr.desktop"). Refused, nothing launched: a link with no
// scheme (cannot_take_target, problem "unparseable"); no app for its scheme (no_default_app,
// APP_NOT_FOUND, details.scheme).
Result<std::string> default_app_for_link(std::string_view url);

}  // namespace companyos::launch
