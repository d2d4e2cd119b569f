#include "x11/capabilities.h"

#include "x11/extension_lock.h"
#include "x11/properties.h"
#include "x11/xlib.h"

namespace companyos::x11 {

namespace {

bool has_xtest(Connection& connection) {
  int event_base = 0;
  int error_base = 0;
  int major = 0;
  int minor = 0;
  const auto lock = lock_extension_state();
  return XTestQueryExtension(connection.display(), &event_base, &error_base, &major, &minor) != 0;
}

}  // namespace

Result<Capabilities> probe_capabilities(Connection& connection) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  Capabilities found;
  found.xtest = has_xtest(connection);

  constexpr const char* kCheck = "_NET_SUPPORTING_WM_CHECK";
  const auto wm_window = read_long(connection, connection.root(), kCheck, XA_WINDOW);
  if (wm_window && *wm_window != None) {
    // A stale property from a window manager that has exited names a window that is gone
    // or no longer points at itself.
    const auto self = read_long(connection, *wm_window, kCheck, XA_WINDOW);
    found.ewmh_window_manager = self && *self == *wm_window;
    if (found.ewmh_window_manager) {
      found.window_manager_name = read_utf8(connection, *wm_window, "_NET_WM_NAME").value_or("");
    }
  }
  return found;
}

Status require_xtest(Connection& connection) {
  if (auto alive = connection.check_alive(); !alive) return alive;
  if (has_xtest(connection)) return ok_status();
  return make_error(ErrorCode::kPlatformNotSupported,
                    "the X server does not offer the XTest extension", {},
                    "start the X server with XTest enabled (+extension XTEST)");
}

}  // namespace companyos::x11
