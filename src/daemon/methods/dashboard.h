// Serving the dashboard, shared by the `dashboard` method, settings.set dashboard_port and
// the daemon's start (when the setting holds a port).
#pragma once

#include <cstdint>

#include "companyos/result.h"

namespace companyos::daemon {
struct DaemonContext;
}  // namespace companyos::daemon

namespace companyos::daemon::methods {

// Serves the installed (or built) page files on 127.0.0.1:port (0: the port served already,
// else a free one); the port served.
Result<std::uint16_t> serve_dashboard(DaemonContext& ctx, std::uint16_t port);

}  // namespace companyos::daemon::methods
