#include "fixture_app.h"

#include <cstdlib>
#include <vector>

#include "wait_until.h"

namespace companyos::x11::testing {
namespace {

std::vector<std::string> fixture_argv(const FixtureOptions& options) {
  std::vector<std::string> argv{fixture_binary().string(), "--title", options.title, "--class",
                                options.wm_class};
  if (!options.effect_file.empty()) {
    argv.insert(argv.end(), {"--effect", options.effect_file.string()});
  }
  return argv;
}

}  // namespace

std::filesystem::path fixture_binary() {
  const char* build_dir = std::getenv("COMPANYOS_BUILD_DIR");
  return std::filesystem::path(build_dir ? build_dir : ".") / "tests" / "fixtures" /
         "companyos-fixture-gtk3";
}

FixtureApp::FixtureApp(const FixtureOptions& options) : process_(fixture_argv(options)) {}

std::optional<WindowInfo> FixtureApp::wait_for_window(Connection& connection) {
  std::optional<WindowInfo> found;
  wait_until([&] {
    auto windows = list_windows(connection);
    if (!windows) return false;
    for (const WindowInfo& window : *windows) {
      if (window.pid == pid()) found = window;
    }
    return found.has_value();
  });
  return found;
}

}  // namespace companyos::x11::testing
