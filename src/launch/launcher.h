// Runs a launch plan: `gio launch <entry file> <target>` from an argument vector in its own
// process group, killed with the group at the deadline (8 s), its exit status and capped
// stderr kept; then the app is brought forward and checked to be in front. A stop request
// ends it at once (gio alone is killed), leaving the app running: it was asked for.
#pragma once

#include <chrono>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <string_view>

#include "companyos/result.h"
#include "launch/in_front.h"
#include "launch/launch_policy.h"
#include "launch/subprocess.h"
#include "x11/connection.h"

namespace companyos::launch {

struct LauncherOptions {
  std::chrono::milliseconds launcher_timeout{8'000};
  std::size_t stderr_cap = kDefaultOutputCap;
  InFrontOptions in_front;
};

enum class LaunchOutcome { kInFront, kNotInFront, kLauncherFailed, kLauncherTimedOut, kStopped };

// "in_front", "not_in_front", "launcher_failed", "launcher_timed_out", "stopped".
std::string_view to_string(LaunchOutcome outcome);

struct LaunchReport {
  LaunchPlan plan;
  LaunchOutcome outcome = LaunchOutcome::kLauncherFailed;
  SubprocessResult launcher;
  std::optional<InFrontCheck> in_front;  // absent when the launcher failed or was stopped
  std::optional<long> app_pid;           // _NET_WM_PID of the app's window, when it sets one
};

// Runs `plan`. INTERNAL only when gio could not be started at all; every later failure is
// in the report's outcome, and so is a stop (`stop` fired while gio ran or the app's window
// was awaited; before the start, nothing is launched).
Result<LaunchReport> run_plan(const LaunchPlan& plan, x11::Connection& connection,
                              const LauncherOptions& options = {}, std::stop_token stop = {});

// The reply data: {outcome, app, entry {id, file, name}, decided_by, target {kind, value},
// argv, launcher {pid, exit_status, signal, timed_out, duration_ms, stderr,
// stderr_truncated}, app_pid, in_front {...}}; see docs/launching.md.
nlohmann::json to_json(const LaunchReport& report);

// The step's error when the outcome is not in_front (details: the report as above): TIMEOUT
// for a launcher killed at its deadline or a window that did not come forward, INTERNAL for
// a launcher that failed, WINDOW_NOT_FOUND when no window of the app appeared, INTERNAL
// (details.reason "stopped") for a stopped launch. Retry is unsafe: something may have been
// launched. OK for in_front.
Status report_status(const LaunchReport& report);

}  // namespace companyos::launch
