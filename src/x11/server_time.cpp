#include "x11/server_time.h"

#include <chrono>

#include "x11/own_window.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

constexpr auto kServerTimeTimeout = std::chrono::milliseconds(500);

}  // namespace

Result<unsigned long> current_server_time(Connection& connection) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  Display* display = connection.display();
  const OwnWindow window(display);
  const Atom property = connection.atom("_COMPANYOS_TIMESTAMP");
  XChangeProperty(display, window.get(), property, XA_STRING, 8, PropModeAppend, nullptr, 0);
  XFlush(display);
  XEvent event{};
  if (!wait_for_window_event(connection, window.get(), PropertyNotify, std::chrono::steady_clock::now() + kServerTimeTimeout,
                             event, [](const XEvent&) { return true; })) {
    return make_error(ErrorCode::kTimeout, "the X server sent no timestamp in time");
  }
  return event.xproperty.time;
}

}  // namespace companyos::x11
