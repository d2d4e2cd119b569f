#include "x11/activation.h"

#include <algorithm>
#include <thread>

#include "x11/error_trap.h"
#include "x11/server_time.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kPollInterval = std::chrono::milliseconds(5);
constexpr long kSourcePager = 2;  // EWMH source indication: a pager acting for the user

Status send_to_window_manager(Connection& connection, WindowId id, const char* message, long data0,
                              long data1) {
  Display* display = connection.display();
  XEvent event{};
  event.xclient.type = ClientMessage;
  event.xclient.window = id;
  event.xclient.message_type = connection.atom(message);
  event.xclient.format = 32;
  event.xclient.data.l[0] = data0;
  event.xclient.data.l[1] = data1;
  ErrorTrap trap(display);
  XSendEvent(display, connection.root(), False, SubstructureRedirectMask | SubstructureNotifyMask,
             &event);
  if (auto error = trap.sync()) {
    return make_error(ErrorCode::kInternal,
                      std::string("the X server refused ") + message + ": " + error->text,
                      {{"window", id}});
  }
  return ok_status();
}

}  // namespace

Status activate_window(Connection& connection, WindowId id, std::chrono::milliseconds timeout) {
  if (auto exists = require_client(connection, id); !exists) return exists;
  const auto deadline = Clock::now() + timeout;
  auto timestamp = current_server_time(connection);
  if (!timestamp) return std::move(timestamp).take_error();
  if (auto sent = send_to_window_manager(connection, id, "_NET_ACTIVE_WINDOW", kSourcePager,
                                         static_cast<long>(*timestamp));
      !sent) {
    return sent;
  }
  std::optional<WindowId> active;
  while (true) {
    auto current = active_window(connection);
    if (!current) return std::move(current).take_error();
    active = *current;
    if (active == id) return ok_status();
    if (Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::min<Clock::duration>(kPollInterval, deadline - Clock::now()));
  }
  nlohmann::json details{{"window", id}, {"timeout_ms", timeout.count()}};
  details["active_window"] = active ? nlohmann::json(*active) : nlohmann::json(nullptr);
  return make_error(
      ErrorCode::kTimeout, "window " + std::to_string(id) + " did not become active in time",
      std::move(details), "check that the window is not blocked by a dialog", Retry::kUnsafe);
}

Status close_window(Connection& connection, WindowId id) {
  if (auto exists = require_client(connection, id); !exists) return exists;
  auto timestamp = current_server_time(connection);
  if (!timestamp) return std::move(timestamp).take_error();
  return send_to_window_manager(connection, id, "_NET_CLOSE_WINDOW", static_cast<long>(*timestamp),
                                kSourcePager);
}

}  // namespace companyos::x11
