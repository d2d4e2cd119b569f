#include "x11/windows.h"

#include <algorithm>

#include "core/text.h"
#include "x11/error_trap.h"
#include "x11/properties.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

Result<std::vector<WindowId>> client_list(Connection& connection) {
  // Only an absent property reads as nullopt: Xlib hands over a buffer (one spare byte)
  // even for a zero-length one, so an empty list stays an empty vector.
  auto ids = read_longs(connection, connection.root(), "_NET_CLIENT_LIST", XA_WINDOW);
  if (!ids) {
    // A read fails the same way when the server has just gone away.
    if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
    return make_error(ErrorCode::kPlatformNotSupported,
                      "no EWMH window manager publishes a client list (_NET_CLIENT_LIST)", {},
                      "run a window manager that supports EWMH");
  }
  return std::vector<WindowId>(ids->begin(), ids->end());
}

std::optional<WindowId> read_active(Connection& connection) {
  auto id = read_long(connection, connection.root(), "_NET_ACTIVE_WINDOW", XA_WINDOW);
  if (!id || *id == None) return std::nullopt;
  return *id;
}

Bounds grow_by_frame(Connection& connection, WindowId id, const Bounds& bounds) {
  auto extents = read_longs(connection, id, "_NET_FRAME_EXTENTS", XA_CARDINAL);
  if (!extents || extents->size() != 4) return bounds;
  const auto left = static_cast<int>((*extents)[0]);
  const auto right = static_cast<int>((*extents)[1]);
  const auto top = static_cast<int>((*extents)[2]);
  const auto bottom = static_cast<int>((*extents)[3]);
  return Bounds{bounds.x - left, bounds.y - top, bounds.width + left + right,
              bounds.height + top + bottom};
}

// nullopt when the window is gone or not viewable.
std::optional<WindowInfo> read_window(Connection& connection, WindowId id,
                                      std::optional<WindowId> active) {
  Display* display = connection.display();
  WindowInfo info;
  info.id = id;
  {
    ErrorTrap trap(display);
    XWindowAttributes attributes{};
    if (XGetWindowAttributes(display, id, &attributes) == 0 || trap.first_error() ||
        attributes.map_state != IsViewable) {
      return std::nullopt;
    }
    int root_x = 0;
    int root_y = 0;
    Window child = None;
    if (!XTranslateCoordinates(display, id, connection.root(), 0, 0, &root_x, &root_y, &child) ||
        trap.first_error()) {
      return std::nullopt;
    }
    info.bounds = Bounds{root_x, root_y, attributes.width, attributes.height};
  }
  info.frame = grow_by_frame(connection, id, info.bounds);
  if (auto pid = read_long(connection, id, "_NET_WM_PID", XA_CARDINAL)) {
    info.pid = static_cast<long>(*pid);
  }
  if (auto hint = read_class_hint(connection, id)) {
    info.wm_instance = std::move(hint->instance);
    info.wm_class = std::move(hint->klass);
  }
  if (auto title = read_utf8(connection, id, "_NET_WM_NAME")) {
    info.title = std::move(*title);
  } else if (auto legacy = read_wm_name(connection, id)) {
    info.title = std::move(*legacy);
  }
  info.active = active && *active == id;
  return info;
}

Error window_not_found(WindowId id) {
  return make_error(ErrorCode::kWindowNotFound,
                    "window " + std::to_string(id) + " is not an open top-level window",
                    {{"window", id}}, "list the windows again; it may have closed");
}

// The child of root that holds `id` (its frame under a reparenting window manager), or
// nullopt when `id` is gone.
std::optional<Window> top_level_of(Connection& connection, WindowId id) {
  Display* display = connection.display();
  Window current = id;
  while (true) {
    ErrorTrap trap(display);
    Window root = None;
    Window parent = None;
    Window* children = nullptr;
    unsigned count = 0;
    const int queried = XQueryTree(display, current, &root, &parent, &children, &count);
    if (children != nullptr) XFree(children);
    if (queried == 0 || trap.first_error()) return std::nullopt;
    if (parent == root || parent == None) return current;
    current = parent;
  }
}

}  // namespace

Result<bool> shows_at(Connection& connection, WindowId id, int x, int y) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  const auto top_level = top_level_of(connection, id);
  if (!top_level) return window_not_found(id);
  Display* display = connection.display();
  ErrorTrap trap(display);
  int local_x = 0;
  int local_y = 0;
  Window child = None;
  // The child of root that contains the point, topmost first, as the pointer would find it.
  if (!XTranslateCoordinates(display, connection.root(), connection.root(), x, y, &local_x, &local_y, &child) ||
      trap.first_error()) {
    return make_error(ErrorCode::kInternal, "the X server could not say which window is at a point",
                      {{"x", x}, {"y", y}});
  }
  return child != None && child == *top_level;
}

bool has_class(const WindowInfo& window, std::string_view name) {
  return equals_ignoring_ascii_case(window.wm_class, name) || equals_ignoring_ascii_case(window.wm_instance, name);
}

Result<std::vector<WindowInfo>> list_windows(Connection& connection) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  auto ids = client_list(connection);
  if (!ids) return std::move(ids).take_error();
  const auto active = read_active(connection);
  std::vector<WindowInfo> windows;
  for (WindowId id : *ids) {
    if (auto info = read_window(connection, id, active)) windows.push_back(std::move(*info));
  }
  return windows;
}

Result<WindowInfo> describe_window(Connection& connection, WindowId id) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  auto ids = client_list(connection);
  if (!ids) return std::move(ids).take_error();
  if (std::find(ids->begin(), ids->end(), id) == ids->end()) return window_not_found(id);
  auto info = read_window(connection, id, read_active(connection));
  if (!info) {
    if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
    return window_not_found(id);
  }
  return std::move(*info);
}

Status require_client(Connection& connection, WindowId id) {
  if (auto alive = connection.check_alive(); !alive) return alive;
  auto ids = client_list(connection);
  if (!ids) return std::move(ids).take_error();
  if (std::find(ids->begin(), ids->end(), id) == ids->end()) return window_not_found(id);
  return ok_status();
}

Result<std::optional<WindowId>> active_window(Connection& connection) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  return read_active(connection);
}

Result<std::optional<WindowInfo>> describe_active_window(Connection& connection) {
  auto active = active_window(connection);
  if (!active) return std::move(active).take_error();
  if (!*active) return std::optional<WindowInfo>{};
  auto info = describe_window(connection, **active);
  if (!info) {
    if (info.error().code == ErrorCode::kWindowNotFound) return std::optional<WindowInfo>{};
    return std::move(info).take_error();
  }
  return std::optional<WindowInfo>(std::move(*info));
}

std::vector<WindowInfo> list_windows_if_any() {
  auto connection = Connection::open();
  if (!connection) return {};
  auto clients = list_windows(*connection);
  return clients ? std::move(*clients) : std::vector<WindowInfo>{};
}

}  // namespace companyos::x11
