// A fixture app started for one test: launched with arguments, stopped (and reaped) when
// the object goes away. Also pauses and resumes it (SIGSTOP/SIGCONT) for hung-app tests.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <gio/gio.h>

#include "core/glib_handles.h"
#include "a11y/observer.h"

namespace companyos::a11y::testing {

// <build>/tests/fixtures/<name>, from COMPANYOS_BUILD_DIR (set by companyos_desktop_test).
std::string fixture_path(const std::string& name);

class FixtureProcess {
 public:
  explicit FixtureProcess(std::vector<std::string> arguments,
                          const std::string& program = "companyos-fixture-gtk3");
  ~FixtureProcess();
  FixtureProcess(const FixtureProcess&) = delete;
  FixtureProcess& operator=(const FixtureProcess&) = delete;

  bool running() const { return process_ != nullptr; }
  int pid() const;
  void pause() const;   // SIGSTOP, returning once every thread has stopped
  void resume() const;  // SIGCONT
  void stop();          // SIGTERM, then reap

 private:
  GObjectPtr<GSubprocess> process_;
};

// Polls the observer until an app with this pid lists its windows laid out (larger than
// 1x1), or the deadline passes.
std::optional<AppInfo> wait_for_app(Observer& observer, int pid,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(20));

Deadline in(std::chrono::milliseconds duration);

}  // namespace companyos::a11y::testing
