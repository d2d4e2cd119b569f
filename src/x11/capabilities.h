// What the X session offers the daemon: XTest for physical input, and an EWMH window
// manager for the client list and activation.
#pragma once

#include <string>

#include "companyos/result.h"
#include "x11/connection.h"

namespace companyos::x11 {

struct Capabilities {
  bool xtest = false;
  // _NET_SUPPORTING_WM_CHECK on root names a window whose own check property names itself.
  bool ewmh_window_manager = false;
  std::string window_manager_name;  // that window's _NET_WM_NAME; empty when unnamed
};

Result<Capabilities> probe_capabilities(Connection& connection);

// OK when the server offers XTest; PLATFORM_NOT_SUPPORTED otherwise.
Status require_xtest(Connection& connection);

}  // namespace companyos::x11
