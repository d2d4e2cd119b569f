#include "x11/server_time.h"

#include <poll.h>

#include <chrono>

#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kServerTimeTimeout = std::chrono::milliseconds(500);

class OwnWindow {
 public:
  explicit OwnWindow(Display* display) : display_(display) {
    XSetWindowAttributes attributes{};
    attributes.event_mask = PropertyChangeMask;
    window_ = XCreateWindow(display, DefaultRootWindow(display), -1, -1, 1, 1, 0, CopyFromParent,
                            InputOnly, CopyFromParent, CWEventMask, &attributes);
  }
  ~OwnWindow() { XDestroyWindow(display_, window_); }
  OwnWindow(const OwnWindow&) = delete;
  OwnWindow& operator=(const OwnWindow&) = delete;
  Window get() const { return window_; }

 private:
  Display* display_;
  Window window_;
};

}  // namespace

Result<unsigned long> current_server_time(Connection& connection) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  Display* display = connection.display();
  const OwnWindow window(display);
  const Atom property = connection.atom("_COMPANYOS_TIMESTAMP");
  XChangeProperty(display, window.get(), property, XA_STRING, 8, PropModeAppend, nullptr, 0);
  XFlush(display);
  const auto deadline = Clock::now() + kServerTimeTimeout;
  XEvent event{};
  while (!XCheckTypedWindowEvent(display, window.get(), PropertyNotify, &event)) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || !connection.alive()) {
      return make_error(ErrorCode::kTimeout, "the X server sent no timestamp in time");
    }
    pollfd readable{ConnectionNumber(display), POLLIN, 0};
    ::poll(&readable, 1, static_cast<int>(left.count()));
  }
  return event.xproperty.time;
}

}  // namespace companyos::x11
