#include "fixture_process.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>

namespace companyos::a11y::testing {

std::string fixture_path(const std::string& name) {
  const char* build = std::getenv("COMPANYOS_BUILD_DIR");
  return std::string(build ? build : ".") + "/tests/fixtures/" + name;
}

Deadline in(std::chrono::milliseconds duration) {
  return std::chrono::steady_clock::now() + duration;
}

FixtureProcess::FixtureProcess(std::vector<std::string> arguments, const std::string& program) {
  const std::string path = fixture_path(program);
  std::vector<const char*> argv{path.c_str()};
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  argv.push_back(nullptr);
  // Quiet: GTK4 warns on every bounds query that X11 screen coordinates are unsupported.
  const auto quiet = static_cast<GSubprocessFlags>(G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                   G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  process_.reset(g_subprocess_newv(argv.data(), quiet, nullptr));
}

FixtureProcess::~FixtureProcess() { stop(); }

int FixtureProcess::pid() const {
  const char* id = process_ ? g_subprocess_get_identifier(process_.get()) : nullptr;
  return id ? std::atoi(id) : -1;
}

namespace {

// Whether every thread of the process is stopped ('T' in /proc/<pid>/task/<tid>/stat).
bool all_threads_stopped(int pid) {
  std::error_code error;
  bool any = false;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    std::ifstream in(task.path() / "stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto closing = stat.rfind(')');
    if (closing == std::string::npos || closing + 2 >= stat.size()) return false;
    if (stat[closing + 2] != 'T' && stat[closing + 2] != 't') return false;
    any = true;
  }
  return any;
}

}  // namespace

void FixtureProcess::pause() const {
  if (!process_) return;
  g_subprocess_send_signal(process_.get(), SIGSTOP);
  // A stop lands asynchronously: until every thread has stopped, a busy app could still
  // answer the request a hung-app test sends next.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!all_threads_stopped(pid()) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void FixtureProcess::resume() const {
  if (process_) g_subprocess_send_signal(process_.get(), SIGCONT);
}

void FixtureProcess::stop() {
  if (!process_) return;
  g_subprocess_send_signal(process_.get(), SIGCONT);
  g_subprocess_send_signal(process_.get(), SIGTERM);
  g_subprocess_wait(process_.get(), nullptr, nullptr);
  process_.reset();
}

std::optional<AppInfo> wait_for_app(Observer& observer, int pid, std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    if (auto apps = observer.apps(in(std::chrono::seconds(2)))) {
      for (const AppInfo& app : *apps) {
        // A window is listed before GTK lays it out (bounds 1x1 at 0,0); wait for its size.
        const bool laid_out =
            !app.windows.empty() &&
            std::all_of(app.windows.begin(), app.windows.end(), [](const WindowInfo& window) {
              return window.bounds && window.bounds->width > 1 && window.bounds->height > 1;
            });
        if (app.pid == pid && laid_out) return app;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return std::nullopt;
}

}  // namespace companyos::a11y::testing
