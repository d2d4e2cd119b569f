// Top-level windows as the EWMH window manager lists them (_NET_CLIENT_LIST), and which
// one is active. Only mapped, viewable clients count: GTK's unmapped leader window carries
// the same WM_CLASS as the real one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "x11/connection.h"
#include "core/geometry.h"

namespace companyos::x11 {

using WindowId = unsigned long;  // the X11 window id (XID)

struct WindowInfo {
  WindowId id = 0;
  std::optional<long> pid;  // _NET_WM_PID, when the client sets it
  std::string wm_instance;  // WM_CLASS instance (res_name)
  std::string wm_class;     // WM_CLASS class (res_class)
  std::string title;        // _NET_WM_NAME, else WM_NAME
  Bounds bounds;              // client area
  Bounds frame;               // bounds grown by _NET_FRAME_EXTENTS (= bounds without them)
  bool active = false;
};

// True when the window's WM_CLASS class or instance is `name`, ignoring ASCII case: how
// an app's name (or a desktop entry's StartupWMClass) picks its X11 windows.
bool has_class(const WindowInfo& window, std::string_view name);

// Every mapped, viewable client in the window manager's order; empty when the window
// manager has no client (an empty _NET_CLIENT_LIST). PLATFORM_NOT_SUPPORTED only when root
// has no _NET_CLIENT_LIST at all: no EWMH window manager, or one that is still starting.
Result<std::vector<WindowInfo>> list_windows(Connection& connection);
// The same on a connection of its own; none when there is no X11 display or no EWMH window
// manager (a Wayland session, or a desktop without X11): for listings that only add X11
// facts where there are any.
std::vector<WindowInfo> list_windows_if_any();

// One client window. WINDOW_NOT_FOUND unless `id` is a mapped, viewable client.
Result<WindowInfo> describe_window(Connection& connection, WindowId id);

// OK when `id` is in the client list, viewable or not (a minimized window can still be
// activated or closed); WINDOW_NOT_FOUND otherwise.
Status require_client(Connection& connection, WindowId id);

// Whether the root point (x, y) shows window `id`: the top-level window there (the window
// manager's frame, or an override-redirect menu or tooltip) is `id` or holds it. False when
// anything else covers the point. WINDOW_NOT_FOUND when `id` is gone.
Result<bool> shows_at(Connection& connection, WindowId id, int x, int y);

// Root's _NET_ACTIVE_WINDOW; nullopt when nothing is active.
Result<std::optional<WindowId>> active_window(Connection& connection);

// The active window described (its WM_CLASS is what launch checks); nullopt when nothing
// is active or the active window is not a viewable client.
Result<std::optional<WindowInfo>> describe_active_window(Connection& connection);

}  // namespace companyos::x11
