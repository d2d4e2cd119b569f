#include "x11/pointer.h"

#include <array>
#include <chrono>
#include <thread>

#include "x11/capabilities.h"
#include "x11/error_trap.h"
#include "x11/extension_lock.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

Status sent(ErrorTrap& trap, const char* what, nlohmann::json details) {
  if (auto error = trap.sync()) {
    return make_error(ErrorCode::kInternal, std::string(what) + ": " + error->text,
                      std::move(details), {}, Retry::kUnsafe);
  }
  return ok_status();
}

Status require_button(Connection& connection, int button) {
  const int buttons = XGetPointerMapping(connection.display(), nullptr, 0);
  if (button >= 1 && button <= buttons) return ok_status();
  return make_error(ErrorCode::kInvalidArgs, "the pointer has no button " + std::to_string(button),
                    {{"button", button}, {"buttons", buttons}});
}

// How long a window manager may hold a click (see wait_until_released).
constexpr auto kReleaseDeadline = std::chrono::seconds(2);
constexpr auto kReleasePollInterval = std::chrono::milliseconds(2);
constexpr std::array<unsigned, 5> kButtonMasks{Button1Mask, Button2Mask, Button3Mask, Button4Mask,
                                               Button5Mask};

// Window managers that focus on click (openbox among them) grab the button synchronously:
// the press is frozen until they replay it to the client, while keys still flow. Waiting
// until the server has processed the release keeps the click ahead of whatever is typed
// next. Buttons past 5 have no state bit to watch.
Status wait_until_released(Connection& connection, int button) {
  if (button > static_cast<int>(kButtonMasks.size())) return ok_status();
  const unsigned mask = kButtonMasks[static_cast<std::size_t>(button - 1)];
  const auto deadline = std::chrono::steady_clock::now() + kReleaseDeadline;
  while (true) {
    Window root = None;
    Window child = None;
    int root_x = 0;
    int root_y = 0;
    int x = 0;
    int y = 0;
    unsigned state = 0;
    XQueryPointer(connection.display(), connection.root(), &root, &child, &root_x, &root_y, &x, &y,
                  &state);
    if ((state & mask) == 0) return ok_status();
    if (std::chrono::steady_clock::now() >= deadline || !connection.alive()) break;
    std::this_thread::sleep_for(kReleasePollInterval);
  }
  return make_error(ErrorCode::kTimeout, "the click was sent but its release is still held",
                    {{"button", button}},
                    "another client grabs the pointer; check the window manager", Retry::kUnsafe);
}

}  // namespace

Status move_pointer(Connection& connection, int x, int y) {
  if (auto xtest = require_xtest(connection); !xtest) return xtest;
  if (x < 0 || y < 0 || x >= connection.screen_width() || y >= connection.screen_height()) {
    return make_error(ErrorCode::kInvalidArgs,
                      "point (" + std::to_string(x) + ", " + std::to_string(y) + ") is off screen",
                      {{"x", x},
                       {"y", y},
                       {"screen_width", connection.screen_width()},
                       {"screen_height", connection.screen_height()}});
  }
  ErrorTrap trap(connection.display());
  {
    const auto lock = lock_extension_state();
    XTestFakeMotionEvent(connection.display(), connection.screen(), x, y, CurrentTime);
  }
  return sent(trap, "the X server rejected the pointer motion", {{"x", x}, {"y", y}});
}

Status click_button(Connection& connection, int button) {
  if (auto xtest = require_xtest(connection); !xtest) return xtest;
  if (auto known = require_button(connection, button); !known) return known;
  const auto which = static_cast<unsigned>(button);
  ErrorTrap trap(connection.display());
  {
    const auto lock = lock_extension_state();
    XTestFakeButtonEvent(connection.display(), which, True, CurrentTime);
    XTestFakeButtonEvent(connection.display(), which, False, CurrentTime);
  }
  if (auto delivered = sent(trap, "the X server rejected the button events", {{"button", button}});
      !delivered) {
    return delivered;
  }
  return wait_until_released(connection, button);
}

Status click_at(Connection& connection, int x, int y, int button) {
  if (auto alive = connection.check_alive(); !alive) return alive;
  if (auto known = require_button(connection, button); !known) return known;
  if (auto moved = move_pointer(connection, x, y); !moved) return moved;
  return click_button(connection, button);
}

}  // namespace companyos::x11
