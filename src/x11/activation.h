// Asking the EWMH window manager to activate or close a window, as a pager would
// (source indication 2), and confirming activation from root's _NET_ACTIVE_WINDOW.
#pragma once

#include <chrono>

#include "companyos/result.h"
#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::x11 {

// Requests activation of `id` and waits until root's _NET_ACTIVE_WINDOW names it.
// WINDOW_NOT_FOUND (nothing sent) unless `id` is in the client list; TIMEOUT when another
// window is still active at the deadline (details.active_window: that one, or null).
Status activate_window(Connection& connection, WindowId id,
                       std::chrono::milliseconds timeout = std::chrono::seconds(2));

// Asks the window manager to close `id` politely (_NET_CLOSE_WINDOW); the client may
// refuse or ask the user. WINDOW_NOT_FOUND (nothing sent) unless `id` is a client.
Status close_window(Connection& connection, WindowId id);

}  // namespace companyos::x11
