// Internal: a current X server timestamp, for requests that EWMH wants stamped.
#pragma once

#include "companyos/result.h"
#include "x11/connection.h"

namespace companyos::x11 {

// Got the ICCCM way: append nothing to a property of a window of our own and read the time
// on the PropertyNotify that follows. TIMEOUT when the server does not answer in 500 ms.
Result<unsigned long> current_server_time(Connection& connection);

}  // namespace companyos::x11
