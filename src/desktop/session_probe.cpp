#include "desktop/session_probe.h"

#include "core/deadline.h"
#include "launch/platform.h"
#include "x11/capabilities.h"
#include "x11/connection.h"

namespace companyos::desktop {
namespace {

X11Facts probe_x11() {
  X11Facts facts;
  auto connection = x11::Connection::open();
  if (!connection) {
    facts.error = connection.error().message;
    return facts;
  }
  facts.connected = true;
  facts.display = connection->name();
  auto caps = x11::probe_capabilities(*connection);
  if (!caps) {
    facts.error = caps.error().message;
    return facts;
  }
  facts.xtest = caps->xtest;
  facts.ewmh_window_manager = caps->ewmh_window_manager;
  facts.window_manager = caps->window_manager_name;
  return facts;
}

}  // namespace

SessionFacts probe_session(a11y::Observer& observer, std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  SessionFacts facts;
  facts.display_server = x11::detect_display_server();
  if (facts.display_server == x11::DisplayServer::kX11) facts.x11 = probe_x11();
  if (facts.display_server == x11::DisplayServer::kWayland) {
    facts.wayland = probe_compositor(budget / 4);  // one ListNames call
  }
  facts.accessibility = observer.bus_health(deadline);
  // Asked once per daemon: spawning gio on every status would cost more than the rest.
  static const bool gio_launch =
      launch::gio_has_launch(launch::kDefaultGio, std::chrono::milliseconds(2000));
  facts.gio_launch = gio_launch;
  return facts;
}

}  // namespace companyos::desktop
