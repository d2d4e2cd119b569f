// Internal: a round trip through a client's own event loop (EWMH _NET_WM_PING). Once the
// reply is back, the client has read every event the server sent it before the ping.
#pragma once

#include <chrono>

#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::x11 {

// False when the window does not take part in pings (WM_PROTOCOLS lacks _NET_WM_PING), is
// gone, or its client did not answer within `timeout`.
bool ping_client(Connection& connection, WindowId window, std::chrono::milliseconds timeout);

}  // namespace companyos::x11
