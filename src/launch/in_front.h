// Bringing a launched app forward: wait (bounded) for a mapped window whose WM_CLASS names
// the app, ask the window manager to activate it (_NET_ACTIVE_WINDOW), then check that the
// active window's WM_CLASS names the app. A failed check shows both classes. A stop request
// ends the wait at once; the app is left as it is.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::launch {

struct InFrontOptions {
  std::chrono::milliseconds window_deadline{10'000};
  std::chrono::milliseconds activation_timeout{2'000};
  // When the app had windows before the launch: how long a new one is waited for before the
  // newest existing one is taken (single-instance apps often reuse their window).
  std::chrono::milliseconds reuse_grace{2'000};
  std::chrono::milliseconds poll_interval{50};
};

struct InFrontCheck {
  bool passed = false;
  bool stopped = false;  // the stop token fired before the window was asked to come forward
  std::vector<std::string> expected_classes;
  std::optional<x11::WindowInfo> app_window;     // the window asked to come forward
  std::optional<x11::WindowInfo> active_window;  // the active window when checked
  std::string message;
  std::chrono::milliseconds waited{0};  // until the app's window was there
};

// True when the window's WM_CLASS class or instance equals one of `expected_classes`,
// ignoring ASCII case.
bool names_app(const x11::WindowInfo& window, const std::vector<std::string>& expected_classes);

// The ids of the windows now listed, to tell new windows from old ones after a launch; empty
// when the window manager keeps no list.
std::vector<x11::WindowId> current_window_ids(x11::Connection& connection);

InFrontCheck bring_to_front(x11::Connection& connection,
                            const std::vector<std::string>& expected_classes,
                            const std::vector<x11::WindowId>& windows_before,
                            const InFrontOptions& options = {}, std::stop_token stop = {});

nlohmann::json to_json(const InFrontCheck& check);

}  // namespace companyos::launch
