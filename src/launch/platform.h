// The facts about this session that launch steps depend on: an X11 display, and a `gio`
// with the launch subcommand (found by asking the command, not by reading a version).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "launch/refusal.h"
#include "x11/display_server.h"

namespace companyos::launch {

inline constexpr const char* kDefaultGio = "gio";

struct PlatformFacts {
  x11::DisplayServer display_server = x11::DisplayServer::kNone;
  bool gio_launch = false;
};

// True when `<gio> help launch` exits 0 within `timeout`.
bool gio_has_launch(const std::string& gio_program,
                    std::chrono::milliseconds timeout = std::chrono::seconds(5));

// Detects the display server of this process's environment and asks `gio_program`.
PlatformFacts probe_platform(const std::string& gio_program = kDefaultGio);

// not_x11 (Wayland or no X11 display), then no_gio_launch; empty when launching can work.
std::vector<Refusal> platform_refusals(const PlatformFacts& facts,
                                       const std::string& gio_program = kDefaultGio);

}  // namespace companyos::launch
