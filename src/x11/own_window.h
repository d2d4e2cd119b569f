// Internal: an unmapped InputOnly window of the daemon's own, told about its property
// changes — what ICCCM exchanges (a server timestamp, a selection's conversion, an INCR
// transfer, owning a selection) need — and the wait for one event on such a window.
#pragma once

#include <poll.h>

#include <algorithm>
#include <chrono>

#include "x11/connection.h"
#include "x11/xlib.h"

namespace companyos::x11 {

class OwnWindow {
 public:
  explicit OwnWindow(Display* display) : display_(display) {
    XSetWindowAttributes attributes{};
    attributes.event_mask = PropertyChangeMask;
    window_ = XCreateWindow(display, DefaultRootWindow(display), -1, -1, 1, 1, 0, CopyFromParent, InputOnly,
                            CopyFromParent, CWEventMask, &attributes);
  }
  ~OwnWindow() { XDestroyWindow(display_, window_); }
  OwnWindow(const OwnWindow&) = delete;
  OwnWindow& operator=(const OwnWindow&) = delete;
  Window get() const { return window_; }

 private:
  Display* display_;
  Window window_;
};

// Waits until an event of `type` on `window` that `matches` arrives (into `event`), or
// `deadline` passes, or the connection breaks; true when one arrived. Events of other
// types and windows stay queued.
template <typename Matches>
bool wait_for_window_event(Connection& connection, Window window, int type,
                           std::chrono::steady_clock::time_point deadline, XEvent& event, Matches matches) {
  Display* display = connection.display();
  for (;;) {
    while (XCheckTypedWindowEvent(display, window, type, &event)) {
      if (matches(event)) return true;
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !connection.alive()) return false;
    pollfd readable{ConnectionNumber(display), POLLIN, 0};
    // Bounded: another thread's Xlib call may read our event off the socket first.
    ::poll(&readable, 1, static_cast<int>(std::min<long long>(left.count(), 50)));
  }
}

}  // namespace companyos::x11
