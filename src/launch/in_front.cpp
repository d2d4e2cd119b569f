#include "launch/in_front.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "x11/activation.h"

namespace companyos::launch {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::string quoted_list(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& value : values) {
    if (!text.empty()) text += ", ";
    text += "'" + value + "'";
  }
  return text;
}

std::string describe_class(const std::optional<x11::WindowInfo>& window) {
  if (!window) return "no active window";
  return "WM_CLASS '" + window->wm_class + "' (instance '" + window->wm_instance + "')";
}

nlohmann::json window_json(const std::optional<x11::WindowInfo>& window) {
  if (!window) return nullptr;
  nlohmann::json out{{"id", window->id},
                     {"wm_class", window->wm_class},
                     {"wm_instance", window->wm_instance},
                     {"title", window->title}};
  out["pid"] = window->pid ? nlohmann::json(*window->pid) : nlohmann::json(nullptr);
  return out;
}

// The app's window to bring forward from the current list: the newest new one, else — once
// the grace period for a new one is over — the newest one that was there before.
std::optional<x11::WindowInfo> pick_app_window(const std::vector<x11::WindowInfo>& windows,
                                               const std::vector<std::string>& expected,
                                               const std::vector<x11::WindowId>& before,
                                               bool accept_existing) {
  std::optional<x11::WindowInfo> existing;
  for (auto window = windows.rbegin(); window != windows.rend(); ++window) {
    if (!names_app(*window, expected)) continue;
    if (std::find(before.begin(), before.end(), window->id) == before.end()) return *window;
    if (!existing) existing = *window;
  }
  if (accept_existing) return existing;
  return std::nullopt;
}

// Sleeps for `duration` unless the stop token fires first.
void pause(const std::stop_token& stop, SteadyClock::duration duration) {
  std::mutex mutex;
  std::condition_variable_any never;
  std::unique_lock lock(mutex);
  never.wait_for(lock, stop, duration, [] { return false; });
}

std::optional<x11::WindowInfo> window_in_front(x11::Connection& connection) {
  auto active = x11::describe_active_window(connection);
  if (!active) return std::nullopt;
  return *active;
}

}  // namespace

bool names_app(const x11::WindowInfo& window, const std::vector<std::string>& expected_classes) {
  return std::any_of(expected_classes.begin(), expected_classes.end(),
                     [&window](const std::string& expected) { return x11::has_class(window, expected); });
}

std::vector<x11::WindowId> current_window_ids(x11::Connection& connection) {
  std::vector<x11::WindowId> ids;
  if (auto windows = x11::list_windows(connection)) {
    for (const x11::WindowInfo& window : *windows) ids.push_back(window.id);
  }
  return ids;
}

InFrontCheck bring_to_front(x11::Connection& connection,
                            const std::vector<std::string>& expected_classes,
                            const std::vector<x11::WindowId>& windows_before,
                            const InFrontOptions& options, std::stop_token stop) {
  InFrontCheck check;
  check.expected_classes = expected_classes;
  const auto started = SteadyClock::now();
  const auto deadline = started + options.window_deadline;
  const auto grace_over = started + options.reuse_grace;
  std::string listing_error;
  while (!stop.stop_requested()) {
    const auto now = SteadyClock::now();
    // Listing fails while no window manager publishes _NET_CLIENT_LIST (one still starting),
    // so only a failure that lasts to the deadline counts.
    auto windows = x11::list_windows(connection);
    if (windows) {
      listing_error.clear();
      check.app_window =
          pick_app_window(*windows, expected_classes, windows_before, now >= grace_over);
    } else {
      listing_error = windows.error().message;
    }
    if (check.app_window || now >= deadline) break;
    pause(stop, std::min<SteadyClock::duration>(options.poll_interval, deadline - now));
  }
  check.waited =
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - started);

  // A stop also keeps a window that was found from being activated: nothing more is done.
  if (stop.stop_requested()) {
    check.stopped = true;
    check.message = check.app_window
                        ? "stopped before the app's window (" + describe_class(check.app_window) +
                              ") was asked to come forward"
                        : "stopped after " + std::to_string(check.waited.count()) +
                              " ms of waiting for a window with WM_CLASS " +
                              quoted_list(expected_classes);
    return check;
  }

  if (!listing_error.empty()) {
    check.message = "cannot list windows: " + listing_error;
    return check;
  }
  if (!check.app_window) {
    check.active_window = window_in_front(connection);
    check.message = "no window with WM_CLASS " + quoted_list(expected_classes) +
                    " appeared within " + std::to_string(options.window_deadline.count()) +
                    " ms; in front: " + describe_class(check.active_window);
    return check;
  }
  // A refused or slow activation is not final: the check below reads what is in front.
  auto activated =
      x11::activate_window(connection, check.app_window->id, options.activation_timeout);
  check.active_window = window_in_front(connection);
  check.passed = check.active_window && names_app(*check.active_window, expected_classes);
  if (check.passed) {
    check.message = "the app's window is in front (" + describe_class(check.active_window) + ")";
  } else {
    check.message = "the app's window (" + describe_class(check.app_window) +
                    ") did not come forward; in front: " + describe_class(check.active_window) +
                    "; expected " + quoted_list(expected_classes);
    if (!activated) check.message += " (" + activated.error().message + ")";
  }
  return check;
}

nlohmann::json to_json(const InFrontCheck& check) {
  return {{"passed", check.passed},
          {"expected_classes", check.expected_classes},
          {"app_window", window_json(check.app_window)},
          {"active_window", window_json(check.active_window)},
          {"message", check.message},
          {"waited_ms", check.waited.count()}};
}

}  // namespace companyos::launch
