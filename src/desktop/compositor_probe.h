// The Wayland compositor as `status` and `doctor` report it: who it is, known by the names
// it owns on the session bus, and whether mutter's remote-desktop interfaces answer — the
// way GNOME lets a client see the screen and send input once the person approves
// (docs/wayland.md). Blocking, bounded by `timeout`.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace companyos::desktop {

inline constexpr std::string_view kMutterRemoteDesktop = "org.gnome.Mutter.RemoteDesktop";
inline constexpr std::string_view kMutterScreenCast = "org.gnome.Mutter.ScreenCast";

struct CompositorFacts {
  std::string compositor = {};          // "mutter" or "kwin"; "" when none is recognised
  bool mutter_remote_desktop = false;   // kMutterRemoteDesktop has an owner
  bool mutter_screen_cast = false;      // kMutterScreenCast has an owner
  std::optional<std::string> error = {};  // why the session bus could not be asked
};

// From the names owned on the session bus: mutter owns org.gnome.Mutter.DisplayConfig,
// KWin org.kde.KWin; others (wlroots compositors) own none we know, so "" for them.
CompositorFacts compositor_from_bus_names(const std::vector<std::string>& names);

CompositorFacts probe_compositor(std::chrono::milliseconds timeout);

}  // namespace companyos::desktop
