// Launch steps end to end under the headless desktop: desktop entries for the stand-in app
// in the session's $XDG_DATA_HOME, the real `gio launch`, and openbox. Effects are read from
// outside the library: the stand-in's argument record, xprop, /proc.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <stop_token>
#include <thread>

#include "launch/launch_step.h"
#include "launch_session.h"

namespace companyos::launch::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// What an installed stand-in entry records to, and what its record will hold before the target.
struct Standin {
  std::string id;
  fs::path record;
  fs::path pid_file;
  std::vector<std::string> fixed_arguments;
};

class LaunchDesktop : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "launch-desktop-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    ASSERT_TRUE(fs::exists(standin_file("companyos-standin"))) << "build companyos-standin first";
  }

  // Stops every stand-in this test started (each wrote a pid file here).
  void TearDown() override {
    for (const auto& file : fs::directory_iterator(dir_)) {
      if (file.path().extension() != ".pid") continue;
      if (auto pid = read_pid(file.path())) {
        ::kill(*pid, SIGTERM);
        EXPECT_TRUE(wait_until([&] { return process_gone(*pid); }));
      }
    }
    fs::remove_all(dir_);
  }

  // Installs entry `id` for the stand-in: Exec ends with `field_code`; `keys` add to or
  // replace Type/Name/Exec; `options` are the stand-in's own (e.g. --class X).
  Standin install_standin(const std::string& id, const std::string& name,
                          const std::string& field_code, std::map<std::string, std::string> keys,
                          const std::vector<std::string>& options,
                          const fs::path& program = standin_file("companyos-standin")) {
    Standin standin;
    standin.id = id;
    standin.record = dir_ / (id + ".record");
    standin.pid_file = dir_ / (id + ".pid");
    standin.fixed_arguments = {"--record", standin.record.string(), "--pid-file",
                               standin.pid_file.string()};
    for (const std::string& option : options) standin.fixed_arguments.push_back(option);
    standin.fixed_arguments.push_back("--");
    keys.emplace("Type", "Application");
    keys.emplace("Name", name);
    keys.emplace("Exec", exec_line(program.string(), standin.fixed_arguments, field_code));
    install_entry(id, keys);
    return standin;
  }

  // The record once it appears, or nullopt at the deadline.
  static std::optional<std::vector<std::string>> await_record(const Standin& standin) {
    std::optional<std::vector<std::string>> record;
    wait_until([&] { return (record = read_record(standin.record)).has_value(); });
    return record;
  }

  static std::vector<std::string> expected_record(const Standin& standin,
                                                  const std::string& target) {
    auto record = standin.fixed_arguments;
    record.push_back(target);
    return record;
  }

  fs::path dir_;
};

using OpenTargets = LaunchDesktop;
using InFront = LaunchDesktop;
using LauncherDeadline = LaunchDesktop;

TEST_F(OpenTargets, AUrlArrivesAsExactlyOneArgument) {
  const Standin standin =
      install_standin("companyos-standin-web.desktop", "Standin Web", "%u",
                      {{"MimeType", "x-scheme-handler/http;x-scheme-handler/https;"},
                       {"StartupWMClass", "CompanyosStandinWeb"}},
                      {"--class", "CompanyosStandinWeb"});
  const std::string url = "https://example.org/a/b?x=1&y=$2;z=%24#top";
  auto report = run_launch_step("CompanyosStandinWeb", {TargetKind::kLink, url});
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->outcome, LaunchOutcome::kInFront) << to_json(*report).dump(2);
  EXPECT_EQ(report->plan.argv,
            (std::vector<std::string>{"gio", "launch", report->plan.entry.file.string(), url}));
  EXPECT_EQ(await_record(standin), expected_record(standin, url));
}

TEST_F(OpenTargets, AFilePathWithShellCharactersArrivesAsExactlyOneArgument) {
  const fs::path file = dir_ / "a$b;c&d\"e'f g.txt";
  std::ofstream(file) << "content";
  const Standin standin = install_standin("companyos-standin-files.desktop", "Standin Files", "%f",
                                          {{"StartupWMClass", "CompanyosStandinFiles"}},
                                          {"--class", "CompanyosStandinFiles"});
  auto report = run_launch_step("companyos-standin-files", {TargetKind::kFile, file.string()});
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->outcome, LaunchOutcome::kInFront) << to_json(*report).dump(2);
  EXPECT_EQ(report->launcher.exit_status, 0);
  EXPECT_EQ(await_record(standin), expected_record(standin, file.string()));
}

TEST_F(OpenTargets, AFileUriArrivesAsExactlyOneArgument) {
  const fs::path file = dir_ / "a$b;c&d\"e'f g.txt";
  std::ofstream(file) << "content";
  // The canonical form GLib gives this file's URI, so that it passes through unchanged.
  const std::string uri = "file://" + dir_.string() + "/a$b%3Bc&d%22e'f%20g.txt";
  struct Case {
    std::string id;
    std::string field_code;
    std::map<std::string, std::string> keys;
    std::string expected;  // what the app receives
  };
  const Case cases[] = {
      {"companyos-standin-path.desktop", "%f", {}, file.string()},  // gio hands %f a path
      {"companyos-standin-uri.desktop", "%u", {{"X-GIO-NoFuse", "true"}}, uri},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.id);
    auto keys = c.keys;
    keys["StartupWMClass"] = "CompanyosStandinUri";
    const Standin standin =
        install_standin(c.id, c.id, c.field_code, keys, {"--class", "CompanyosStandinUri"});
    auto report = run_launch_step(c.id, {TargetKind::kFile, uri});
    ASSERT_TRUE(report.ok()) << report.error().message;
    EXPECT_EQ(report->plan.argv.back(), uri);
    EXPECT_EQ(await_record(standin), expected_record(standin, c.expected));
  }
}

TEST_F(OpenTargets, ARefusedStepLaunchesNothing) {
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  // A stand-in reachable under an interpreter's name: refused by name, though harmless.
  const fs::path disguised = dir_ / "bin" / "python3.11";
  fs::create_directories(disguised.parent_path());
  fs::create_symlink(standin_file("companyos-standin"), disguised);

  struct Case {
    std::string app;
    Target target;
    std::string reason;
    std::string gio = kDefaultGio;
  };
  const Target file_target{TargetKind::kFile, file.string()};
  std::vector<std::pair<Standin, Case>> refused;
  refused.push_back({install_standin("refuse-terminal.desktop", "Refuse Terminal", "%f",
                                     {{"Terminal", "true"}}, {}),
                     {"refuse-terminal", file_target, "terminal_entry"}});
  refused.push_back(
      {install_standin("refuse-shell.desktop", "Refuse Shell", "%f", {}, {}, disguised),
       {"refuse-shell", file_target, "shell_entry"}});
  refused.push_back(
      {install_standin("refuse-link.desktop", "Refuse Link", "%f",
                       {{"MimeType", "x-scheme-handler/https;"}}, {}),
       {"refuse-link", {TargetKind::kLink, "https://example.org/"}, "cannot_take_target"}});
  refused.push_back({install_standin("refuse-twin-a.desktop", "Refuse Twin", "%f", {}, {}),
                     {"Refuse Twin", file_target, "ambiguous_entry"}});
  refused.push_back({install_standin("refuse-twin-b.desktop", "Refuse Twin", "%f", {}, {}),
                     {"Refuse Twin", file_target, "ambiguous_entry"}});
  refused.push_back({install_standin("refuse-gio.desktop", "Refuse Gio", "%f", {}, {}),
                     {"refuse-gio", file_target, "no_gio_launch", "/bin/false"}});
  for (const auto& [standin, c] : refused) {
    SCOPED_TRACE(c.app + " → " + c.reason);
    LaunchStepOptions options;
    options.policy.gio_program = c.gio;
    auto report = run_launch_step(c.app, c.target, options);
    ASSERT_FALSE(report.ok());
    EXPECT_EQ(report.error().details.value("reason", ""), c.reason) << report.error().message;
    EXPECT_EQ(report.error().details.value("delivery", ""), "not_delivered");
  }

  // Once a launch started after the refusals has recorded its arguments, a refused one
  // would have too.
  const Standin control =
      install_standin("control.desktop", "Control", "%f", {{"StartupWMClass", "CompanyosControl"}},
                      {"--class", "CompanyosControl"});
  auto report = run_launch_step("control", file_target);
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_TRUE(await_record(control).has_value());
  for (const auto& [standin, c] : refused) {
    EXPECT_FALSE(fs::exists(standin.record)) << standin.id << " was launched";
    EXPECT_FALSE(fs::exists(standin.pid_file)) << standin.id << " was launched";
  }
}

TEST_F(LauncherDeadline, KillsAHangingLauncherWithItsGroupAtEightSeconds) {
  const fs::path pids = dir_ / "hanging-gio.pids";
  ::setenv("COMPANYOS_STANDIN_PIDS", pids.c_str(), 1);
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  install_standin("hang.desktop", "Hang", "%f", {}, {});
  LaunchStepOptions options;
  options.policy.gio_program = standin_file("hanging_gio.sh").string();
  EXPECT_EQ(options.launcher.launcher_timeout, milliseconds(8000));

  const auto started = std::chrono::steady_clock::now();
  auto report = run_launch_step("hang", {TargetKind::kFile, file.string()}, options);
  const auto took = std::chrono::steady_clock::now() - started;
  ::unsetenv("COMPANYOS_STANDIN_PIDS");
  ASSERT_TRUE(report.ok()) << report.error().message;
  std::cout << "hanging launcher ended after "
            << std::chrono::duration_cast<milliseconds>(took).count() << " ms\n";
  EXPECT_EQ(report->outcome, LaunchOutcome::kLauncherTimedOut);
  EXPECT_TRUE(report->launcher.timed_out);
  EXPECT_EQ(report->launcher.signal, SIGKILL);
  EXPECT_GE(report->launcher.duration, milliseconds(8000));
  EXPECT_LT(report->launcher.duration, milliseconds(9500));
  EXPECT_FALSE(report->in_front.has_value());
  EXPECT_EQ(report_status(*report).error().code, ErrorCode::kTimeout);

  std::ifstream in(pids);
  pid_t launcher = 0;
  pid_t sleeper = 0;
  in >> launcher >> sleeper;
  ASSERT_GT(launcher, 0);
  ASSERT_GT(sleeper, 0);
  EXPECT_TRUE(wait_until([&] { return process_gone(launcher) && process_gone(sleeper); }));
}

TEST_F(LauncherDeadline, AStopKillsAHangingLauncherAloneAndLeavesWhatItStarted) {
  const fs::path pids = dir_ / "hanging-gio.pids";
  ::setenv("COMPANYOS_STANDIN_PIDS", pids.c_str(), 1);
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  install_standin("hang-stop.desktop", "Hang Stop", "%f", {}, {});
  LaunchStepOptions options;
  options.policy.gio_program = standin_file("hanging_gio.sh").string();

  pid_t launcher = 0;
  pid_t sleeper = 0;
  std::stop_source source;
  std::chrono::steady_clock::time_point asked;
  std::thread stopper([&] {
    // While gio hangs, after it started the child that stands for the app.
    wait_until([&] {
      std::ifstream in(pids);
      return static_cast<bool>(in >> launcher >> sleeper) && sleeper > 0;
    });
    asked = std::chrono::steady_clock::now();
    source.request_stop();
  });
  auto report = run_launch_step("hang-stop", {TargetKind::kFile, file.string()}, options,
                                source.get_token());
  const auto returned = std::chrono::steady_clock::now();
  stopper.join();
  ::unsetenv("COMPANYOS_STANDIN_PIDS");
  ASSERT_TRUE(report.ok()) << report.error().message;
  std::cout << "stopped launch returned "
            << std::chrono::duration_cast<milliseconds>(returned - asked).count()
            << " ms after the stop\n";
  EXPECT_EQ(report->outcome, LaunchOutcome::kStopped) << to_json(*report).dump(2);
  EXPECT_LT(returned - asked, milliseconds(1000));
  EXPECT_TRUE(report->launcher.stopped);
  EXPECT_FALSE(report->launcher.timed_out);
  EXPECT_EQ(report->launcher.signal, SIGKILL);
  EXPECT_FALSE(report->in_front.has_value());
  const Status status = report_status(*report);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().details.value("reason", ""), "stopped");

  ASSERT_GT(launcher, 0);
  ASSERT_GT(sleeper, 0);
  EXPECT_TRUE(wait_until([&] { return process_gone(launcher); }));
  EXPECT_FALSE(process_gone(sleeper)) << "what gio started was killed with it";
  ::kill(sleeper, SIGKILL);
  EXPECT_TRUE(wait_until([&] { return process_gone(sleeper); }));
}

TEST_F(InFront, PassesWhenTheAppsWindowComesForward) {
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  const Standin standin =
      install_standin("front.desktop", "Front", "%f", {{"StartupWMClass", "CompanyosFront"}},
                      {"--class", "CompanyosFront"});
  auto report = run_launch_step("front", {TargetKind::kFile, file.string()});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const auto pid = read_pid(standin.pid_file);
  ASSERT_EQ(report->outcome, LaunchOutcome::kInFront)
      << to_json(*report).dump(2) << "\nstand-in recorded: " << fs::exists(standin.record)
      << ", running: " << (pid && !process_gone(*pid)) << "\n"
      << describe_screen();
  EXPECT_TRUE(report_status(*report).ok());
  const InFrontCheck& check = *report->in_front;
  EXPECT_TRUE(check.passed);
  ASSERT_TRUE(check.app_window.has_value());
  EXPECT_EQ(check.expected_classes, (std::vector<std::string>{"CompanyosFront"}));
  std::cout << "window appeared after " << check.waited.count() << " ms\n";

  EXPECT_EQ(xprop_active_window(), check.app_window->id);
  EXPECT_EQ(xprop_wm_class(check.app_window->id), "\"companyos-standin\", \"CompanyosFront\"");
  EXPECT_EQ(report->app_pid, read_pid(standin.pid_file));
}

TEST_F(InFront, FailsWhenNoWindowOfTheAppAppears) {
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  struct Case {
    std::string id;
    std::vector<std::string> options;
  };
  const Case cases[] = {
      {"other-class.desktop", {"--class", "CompanyosSomethingElse"}},
      {"no-window.desktop", {"--no-window"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.id);
    const Standin standin =
        install_standin(c.id, c.id, "%f", {{"StartupWMClass", "CompanyosExpected"}}, c.options);
    LaunchStepOptions options;
    options.launcher.in_front.window_deadline = milliseconds(3000);
    auto report =
        run_launch_step(desktop_id_stem(c.id), {TargetKind::kFile, file.string()}, options);
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_TRUE(await_record(standin).has_value());  // it was launched
    EXPECT_EQ(report->outcome, LaunchOutcome::kNotInFront);
    const InFrontCheck& check = *report->in_front;
    EXPECT_FALSE(check.passed);
    EXPECT_FALSE(check.app_window.has_value());
    EXPECT_GE(check.waited, milliseconds(3000));
    EXPECT_NE(check.message.find("'CompanyosExpected'"), std::string::npos) << check.message;
    EXPECT_EQ(report_status(*report).error().code, ErrorCode::kWindowNotFound);
    if (c.options.front() == "--class") {
      // Both classes are shown: the window that is in front instead is the stand-in's.
      ASSERT_TRUE(check.active_window.has_value());
      EXPECT_EQ(check.active_window->wm_class, "CompanyosSomethingElse");
      EXPECT_EQ(xprop_active_window(), check.active_window->id);
      EXPECT_NE(check.message.find("'CompanyosSomethingElse'"), std::string::npos) << check.message;
    }
  }
}

TEST_F(InFront, AStopEndsTheWaitForTheAppsWindowAndLeavesTheAppRunning) {
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  // Its window's class is not the one expected, so the wait would last to its deadline.
  const Standin standin = install_standin("stop-wait.desktop", "Stop Wait", "%f",
                                          {{"StartupWMClass", "CompanyosExpected"}},
                                          {"--class", "CompanyosSomethingElse"});
  LaunchStepOptions options;
  options.launcher.in_front.window_deadline = milliseconds(60'000);

  std::stop_source source;
  std::chrono::steady_clock::time_point asked;
  std::thread stopper([&] {
    // The app runs and gio has exited: the launch waits for the app's window.
    wait_until([&] { return read_pid(standin.pid_file).has_value() && !child_running(); });
    asked = std::chrono::steady_clock::now();
    source.request_stop();
  });
  auto report = run_launch_step("stop-wait", {TargetKind::kFile, file.string()}, options,
                                source.get_token());
  const auto returned = std::chrono::steady_clock::now();
  stopper.join();
  ASSERT_TRUE(report.ok()) << report.error().message;
  std::cout << "stopped launch returned "
            << std::chrono::duration_cast<milliseconds>(returned - asked).count()
            << " ms after the stop\n";
  EXPECT_EQ(report->outcome, LaunchOutcome::kStopped) << to_json(*report).dump(2);
  EXPECT_LT(returned - asked, milliseconds(1000));
  EXPECT_EQ(report->launcher.exit_status, 0);
  ASSERT_TRUE(report->in_front.has_value());
  EXPECT_TRUE(report->in_front->stopped);
  EXPECT_FALSE(report->in_front->passed);
  EXPECT_FALSE(report->in_front->app_window.has_value());
  EXPECT_EQ(report_status(*report).error().details.value("reason", ""), "stopped");

  const auto pid = read_pid(standin.pid_file);
  ASSERT_TRUE(pid.has_value());
  EXPECT_FALSE(process_gone(*pid)) << "the app was asked for and must keep running";
}

TEST_F(InFront, FailsWhenTheAppsWindowDoesNotComeForward) {
  const fs::path file = dir_ / "document.txt";
  std::ofstream(file) << "content";
  // A bystander in front, then an app whose window refuses input focus.
  install_standin("bystander.desktop", "Bystander", "%f",
                  {{"StartupWMClass", "CompanyosBystander"}}, {"--class", "CompanyosBystander"});
  auto bystander = run_launch_step("bystander", {TargetKind::kFile, file.string()});
  ASSERT_TRUE(bystander.ok()) << bystander.error().message;
  ASSERT_EQ(bystander->outcome, LaunchOutcome::kInFront) << to_json(*bystander).dump(2);

  install_standin("shy.desktop", "Shy", "%f", {{"StartupWMClass", "CompanyosShy"}},
                  {"--class", "CompanyosShy", "--no-input"});
  auto report = run_launch_step("shy", {TargetKind::kFile, file.string()});
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->outcome, LaunchOutcome::kNotInFront) << to_json(*report).dump(2);
  const InFrontCheck& check = *report->in_front;
  ASSERT_TRUE(check.app_window.has_value());
  EXPECT_EQ(check.app_window->wm_class, "CompanyosShy");
  ASSERT_TRUE(check.active_window.has_value());
  EXPECT_EQ(check.active_window->wm_class, "CompanyosBystander");
  EXPECT_EQ(xprop_active_window(), check.active_window->id);
  EXPECT_NE(check.message.find("'CompanyosShy'"), std::string::npos) << check.message;
  EXPECT_NE(check.message.find("'CompanyosBystander'"), std::string::npos) << check.message;
  EXPECT_EQ(report_status(*report).error().code, ErrorCode::kTimeout);
}

}  // namespace
}  // namespace companyos::launch::testing
