// Facts about the desktop session for `status`: the display server, what the X server
// offers or which Wayland compositor runs (and whether mutter's remote-desktop interfaces
// answer), whether the accessibility bus and its registry answer, and whether `gio launch`
// exists. Blocking (it talks to the X server and the bus): run it on a worker.
// The daemon's wire (daemon/wire/session_replies.h) renders them.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "a11y/observer.h"
#include "desktop/compositor_probe.h"
#include "x11/display_server.h"

namespace companyos::desktop {

// The X server as one connection saw it. display is set once connected; the capability
// fields only when error is empty.
struct X11Facts {
  bool connected = false;
  std::string display = {};
  std::optional<std::string> error = {};
  bool xtest = false;
  bool ewmh_window_manager = false;
  std::string window_manager = {};
};

struct SessionFacts {
  x11::DisplayServer display_server = x11::DisplayServer::kNone;
  std::optional<X11Facts> x11 = {};  // only when the display server is X11
  std::optional<CompositorFacts> wayland = {};  // only when it is Wayland
  a11y::BusHealth accessibility = {};
  bool gio_launch = false;
};

// Spends at most `budget` on the bus; the X11 probe is one connection's round trips.
SessionFacts probe_session(a11y::Observer& observer, std::chrono::milliseconds budget);

}  // namespace companyos::desktop
