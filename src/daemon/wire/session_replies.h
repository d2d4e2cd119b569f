// The session facts of a `status` reply:
// {"display_server", "x11" (X11 only), "accessibility", "gio_launch"}.
#pragma once

#include <nlohmann/json.hpp>

#include "desktop/session_probe.h"

namespace companyos::wire {

// "x11" is {"connected", "display", "xtest", "ewmh_window_manager", "window_manager"}, or
// with "error" in place of what could not be probed; "accessibility" is {"bus",
// "registry", "apps" (when listed), "error" (when one did not answer)}.
nlohmann::json session_facts_to_json(const desktop::SessionFacts& facts);

}  // namespace companyos::wire
