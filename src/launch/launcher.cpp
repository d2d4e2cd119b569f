#include "launch/launcher.h"

#include <utility>

namespace companyos::launch {
namespace {

nlohmann::json optional_json(const std::optional<int>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

std::string_view to_string(LaunchOutcome outcome) {
  switch (outcome) {
    case LaunchOutcome::kInFront:
      return "in_front";
    case LaunchOutcome::kNotInFront:
      return "not_in_front";
    case LaunchOutcome::kLauncherFailed:
      return "launcher_failed";
    case LaunchOutcome::kLauncherTimedOut:
      return "launcher_timed_out";
    case LaunchOutcome::kStopped:
      return "stopped";
  }
  return "unknown";
}

Result<LaunchReport> run_plan(const LaunchPlan& plan, x11::Connection& connection,
                              const LauncherOptions& options, std::stop_token stop) {
  LaunchReport report;
  report.plan = plan;
  const auto windows_before = current_window_ids(connection);
  // gio's streams are inherited by the app it starts and may outlive gio: a bounded file
  // never hands the app a SIGPIPE.
  auto launcher = run_subprocess(
      {plan.argv, options.launcher_timeout, options.stderr_cap, Capture::kBoundedFile, stop});
  if (!launcher) return std::move(launcher).take_error();
  report.launcher = std::move(launcher).value();
  if (report.launcher.stopped) {
    report.outcome = LaunchOutcome::kStopped;
    return report;
  }
  if (report.launcher.timed_out) {
    report.outcome = LaunchOutcome::kLauncherTimedOut;
    return report;
  }
  if (!report.launcher.succeeded()) {
    report.outcome = LaunchOutcome::kLauncherFailed;
    return report;
  }
  report.in_front = bring_to_front(connection, plan.expected_classes, windows_before,
                                   options.in_front, std::move(stop));
  if (report.in_front->app_window) report.app_pid = report.in_front->app_window->pid;
  if (report.in_front->stopped) {
    report.outcome = LaunchOutcome::kStopped;
  } else {
    report.outcome =
        report.in_front->passed ? LaunchOutcome::kInFront : LaunchOutcome::kNotInFront;
  }
  return report;
}

nlohmann::json to_json(const LaunchReport& report) {
  const SubprocessResult& launcher = report.launcher;
  return {
      {"outcome", to_string(report.outcome)},
      {"app", report.plan.app},
      {"entry",
       {{"id", report.plan.entry.id},
        {"file", report.plan.entry.file.string()},
        {"name", report.plan.entry.name}}},
      {"decided_by", to_string(report.plan.decided_by)},
      {"target",
       {{"kind", to_string(report.plan.target.kind)}, {"value", report.plan.target.value}}},
      {"argv", report.plan.argv},
      {"launcher",
       {{"pid", launcher.pid},
        {"exit_status", optional_json(launcher.exit_status)},
        {"signal", optional_json(launcher.signal)},
        {"timed_out", launcher.timed_out},
        {"duration_ms", launcher.duration.count()},
        {"stderr", launcher.err},
        {"stderr_truncated", launcher.err_truncated}}},
      {"app_pid", report.app_pid ? nlohmann::json(*report.app_pid) : nlohmann::json(nullptr)},
      {"in_front", report.in_front ? to_json(*report.in_front) : nlohmann::json(nullptr)},
  };
}

Status report_status(const LaunchReport& report) {
  switch (report.outcome) {
    case LaunchOutcome::kInFront:
      return ok_status();
    case LaunchOutcome::kLauncherTimedOut:
      return make_error(ErrorCode::kTimeout,
                        "gio launch did not finish and was killed: " + report.launcher.describe(),
                        to_json(report), "check the entry's Exec program", Retry::kUnsafe);
    case LaunchOutcome::kLauncherFailed:
      return make_error(ErrorCode::kInternal,
                        "gio launch failed (" + report.launcher.describe() + ")" +
                            (report.launcher.err.empty() ? "" : ": " + report.launcher.err),
                        to_json(report), {}, Retry::kUnsafe);
    case LaunchOutcome::kStopped: {
      nlohmann::json details = to_json(report);
      details["reason"] = "stopped";
      return make_error(ErrorCode::kInternal,
                        report.in_front ? report.in_front->message
                                        : "gio launch " + report.launcher.describe(),
                        std::move(details), {}, Retry::kUnsafe);
    }
    case LaunchOutcome::kNotInFront: {
      const bool no_window = !report.in_front || !report.in_front->app_window;
      return make_error(no_window ? ErrorCode::kWindowNotFound : ErrorCode::kTimeout,
                        "in-front check failed: " +
                            (report.in_front ? report.in_front->message : std::string("not run")),
                        to_json(report), {}, Retry::kUnsafe);
    }
  }
  return make_error(ErrorCode::kInternal, "unknown launch outcome");
}

}  // namespace companyos::launch
