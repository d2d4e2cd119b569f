#include "x11/client_ping.h"

#include <poll.h>

#include <algorithm>
#include <memory>

#include "x11/error_trap.h"
#include "x11/server_time.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

using Clock = std::chrono::steady_clock;

bool takes_pings(Connection& connection, WindowId window) {
  ErrorTrap trap(connection.display());
  Atom* protocols = nullptr;
  int count = 0;
  const int got = XGetWMProtocols(connection.display(), window, &protocols, &count);
  const XPtr<Atom> owner(protocols);
  if (got == 0 || trap.first_error() || protocols == nullptr) return false;
  const Atom ping = connection.atom("_NET_WM_PING");
  return std::find(protocols, protocols + count, ping) != protocols + count;
}

// The client answers on the root window with SubstructureNotify/Redirect; any client may
// select SubstructureNotify there. Our other uses of this connection select nothing on root.
class RootNotifySelection {
 public:
  explicit RootNotifySelection(Connection& connection) : connection_(connection) {
    XSelectInput(connection_.display(), connection_.root(), SubstructureNotifyMask);
  }
  ~RootNotifySelection() {
    Display* display = connection_.display();
    XSelectInput(display, connection_.root(), NoEventMask);
    XSync(display, False);
    XEvent discarded{};
    while (XCheckMaskEvent(display, SubstructureNotifyMask, &discarded)) {
    }
    while (XCheckTypedWindowEvent(display, connection_.root(), ClientMessage, &discarded)) {
    }
  }
  RootNotifySelection(const RootNotifySelection&) = delete;
  RootNotifySelection& operator=(const RootNotifySelection&) = delete;

 private:
  Connection& connection_;
};

struct PingReply {
  Atom wm_protocols;
  Atom ping;
  unsigned long stamp;
  WindowId window;
};

int is_ping_reply(Display* /*display*/, XEvent* event, XPointer wanted) noexcept {
  const auto* reply = reinterpret_cast<const PingReply*>(wanted);
  const XClientMessageEvent& message = event->xclient;
  return event->type == ClientMessage && message.message_type == reply->wm_protocols &&
         message.format == 32 && static_cast<Atom>(message.data.l[0]) == reply->ping &&
         static_cast<unsigned long>(message.data.l[1]) == reply->stamp &&
         static_cast<WindowId>(message.data.l[2]) == reply->window;
}

}  // namespace

bool ping_client(Connection& connection, WindowId window, std::chrono::milliseconds timeout) {
  if (!connection.alive() || !takes_pings(connection, window)) return false;
  auto stamp = current_server_time(connection);
  if (!stamp) return false;
  Display* display = connection.display();
  PingReply reply{connection.atom("WM_PROTOCOLS"), connection.atom("_NET_WM_PING"), *stamp, window};
  const RootNotifySelection selection(connection);

  XEvent ping{};
  ping.xclient.type = ClientMessage;
  ping.xclient.window = window;
  ping.xclient.message_type = reply.wm_protocols;
  ping.xclient.format = 32;
  ping.xclient.data.l[0] = static_cast<long>(reply.ping);
  ping.xclient.data.l[1] = static_cast<long>(reply.stamp);
  ping.xclient.data.l[2] = static_cast<long>(window);
  {
    ErrorTrap trap(display);
    XSendEvent(display, window, False, NoEventMask, &ping);
    if (trap.sync()) return false;
  }

  const auto deadline = Clock::now() + timeout;
  XEvent event{};
  while (!XCheckIfEvent(display, &event, &is_ping_reply, reinterpret_cast<XPointer>(&reply))) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || !connection.alive()) return false;
    pollfd readable{ConnectionNumber(display), POLLIN, 0};
    ::poll(&readable, 1, static_cast<int>(left.count()));
  }
  return true;
}

}  // namespace companyos::x11
