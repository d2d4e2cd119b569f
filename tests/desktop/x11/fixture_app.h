// The GTK3 fixture app (tests/fixtures) as desktop tests use it: started with a title, a
// WM_CLASS and an effect file, and found on screen through the window list.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "child_process.h"
#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::x11::testing {

struct FixtureOptions {
  std::string title;
  std::string wm_class;
  std::filesystem::path effect_file;  // empty: no effects
};

class FixtureApp {
 public:
  // Starts the fixture; window() is empty until wait_for_window() found it.
  explicit FixtureApp(const FixtureOptions& options);

  pid_t pid() const { return process_.pid(); }
  ChildProcess& process() { return process_; }
  // Waits (with the desktop deadline) until the client list shows a window of this pid.
  std::optional<WindowInfo> wait_for_window(Connection& connection);

 private:
  ChildProcess process_;
};

// The fixture binary inside $COMPANYOS_BUILD_DIR.
std::filesystem::path fixture_binary();

}  // namespace companyos::x11::testing
