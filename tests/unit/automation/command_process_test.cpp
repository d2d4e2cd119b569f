#include "automation/command_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "temp_dir.h"

namespace companyos::automation {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using Steady = std::chrono::steady_clock;

const SystemClock kSystemClock;

CommandSpec command(std::vector<std::string> argv, milliseconds timeout = milliseconds(10'000)) {
  CommandSpec spec;
  spec.executable = argv.front();
  spec.arguments.assign(argv.begin() + 1, argv.end());
  spec.cwd = "/";
  spec.timeout = timeout;
  return spec;
}

CommandSpec shell_probe(const std::string& script, milliseconds timeout = milliseconds(10'000)) {
  return command({"/bin/sh", "-c", script}, timeout);
}

// Polls `condition` until it holds or `limit` passes; the limits are generous on purpose.
template <typename Condition>
bool eventually(Condition condition, milliseconds limit = milliseconds(10'000)) {
  const auto give_up = Steady::now() + limit;
  while (!condition()) {
    if (Steady::now() >= give_up) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

// True once `pid` no longer runs (gone, or a zombie its new parent has not reaped yet).
bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto state_at = line.rfind(')');
  return state_at == std::string::npos || line.at(state_at + 2) == 'Z';
}

// The command was our child; once run_command returns it must have been reaped.
bool reaped(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) < 0 && errno == ECHILD;
}

pid_t read_pid(const std::string& file) {
  pid_t pid = 0;
  if (!eventually([&] { return std::ifstream(file) >> pid ? pid > 0 : false; })) return 0;
  return pid;
}

TEST(RunCommand, ReportsHowTheCommandEnded) {
  struct Case {
    std::vector<std::string> argv;
    CommandEnd end;
    std::optional<int> exit_status;
    std::optional<int> signal;
    std::string description;
  };
  const Case cases[] = {
      {{"true"}, CommandEnd::kExited, 0, std::nullopt, "exit status 0"},
      {{"false"}, CommandEnd::kExited, 1, std::nullopt, "exit status 1"},
      {{"/bin/sh", "-c", "exit 42"}, CommandEnd::kExited, 42, std::nullopt, "exit status 42"},
      {{"/bin/sh", "-c", "kill -SEGV $$"},
       CommandEnd::kSignalled,
       std::nullopt,
       SIGSEGV,
       "killed by signal 11"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.argv.back());
    auto ran = run_command(command(c.argv), kSystemClock);
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_EQ(ran->end, c.end);
    EXPECT_EQ(ran->exit_status, c.exit_status);
    EXPECT_EQ(ran->signal, c.signal);
    EXPECT_EQ(ran->succeeded(), c.exit_status == 0);
    EXPECT_EQ(ran->describe(), c.description);
    EXPECT_GT(ran->pid, 0);
    EXPECT_TRUE(reaped(ran->pid));
  }
}

TEST(RunCommand, CapturesStdoutAndStderrInTheOrderWritten) {
  auto ran = run_command(shell_probe("echo one; echo two >&2; echo three"), kSystemClock);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->output, "one\ntwo\nthree\n");
  EXPECT_EQ(ran->output_bytes, 14u);
  EXPECT_FALSE(ran->output_truncated);
}

TEST(RunCommand, CapsOutputAndCountsWhatWasDropped) {
  struct Case {
    std::string what;
    std::size_t cap;
    std::vector<std::string> argv;
    std::uint64_t written;
  };
  const Case cases[] = {
      {"the 64 KiB step cap",
       store::kStepOutputCap,
       {"head", "-c", "300000", "/dev/zero"},
       300'000},
      {"a smaller cap left by the run budget",
       1000,
       {"head", "-c", "300000", "/dev/zero"},
       300'000},
      {"both streams count",
       100,
       {"/bin/sh", "-c", "head -c 70000 /dev/zero; head -c 5000 /dev/zero >&2"},
       75'000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    CommandSpec spec = command(c.argv);
    spec.output_cap = c.cap;
    auto ran = run_command(spec, kSystemClock);
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_EQ(ran->exit_status, 0) << "the writer must never block on a full pipe";
    EXPECT_EQ(ran->output.size(), c.cap);
    EXPECT_EQ(ran->output_bytes, c.written);
    EXPECT_TRUE(ran->output_truncated);
  }
}

TEST(RunCommand, StdinIsClosedSoCatEndsAtOnce) {
  const auto started = Steady::now();
  auto ran = run_command(command({"cat"}, milliseconds(30'000)), kSystemClock);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->end, CommandEnd::kExited);
  EXPECT_EQ(ran->exit_status, 0);
  EXPECT_EQ(ran->output, "");
  EXPECT_LT(Steady::now() - started, milliseconds(10'000));
}

TEST(RunCommand, EveryArgumentArrivesAsExactlyOneArgument) {
  const std::vector<std::string> arguments = {"two words",  "'single'",    "\"double\"", "$HOME",
                                              "$(echo no)", "`echo no`",   "a;b",        "x && y",
                                              "*",          "back\\slash", "new\nline",  "",
                                              "  padded  ", "|",           "> out"};
  // The probe prints each argument it receives between brackets.
  std::vector<std::string> argv = {"printf", "[%s]"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  auto ran = run_command(command(argv), kSystemClock);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  std::string expected;
  for (const std::string& argument : arguments) expected += "[" + argument + "]";
  EXPECT_EQ(ran->output, expected);
}

TEST(RunCommand, RunsInTheGivenCwdWithTheDaemonEnvironmentPlusItsOwn) {
  companyos::testing::TempDir dir;
  ASSERT_EQ(::setenv("COMPANYOS_INHERITED_PROBE", "from the daemon", 1), 0);
  ASSERT_EQ(::setenv("COMPANYOS_REPLACED_PROBE", "old", 1), 0);
  CommandSpec spec = shell_probe(
      "pwd -P; printf '%s|%s|%s\\n' \"$COMPANYOS_INHERITED_PROBE\" \"$COMPANYOS_REPLACED_PROBE\" "
      "\"$COMPANYOS_ADDED_PROBE\"");
  spec.cwd = dir.path().string();
  spec.env = {{"COMPANYOS_REPLACED_PROBE", "new"}, {"COMPANYOS_ADDED_PROBE", "a b;$c"}};
  auto ran = run_command(spec, kSystemClock);
  ::unsetenv("COMPANYOS_INHERITED_PROBE");
  ::unsetenv("COMPANYOS_REPLACED_PROBE");
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->output, fs::canonical(dir.path()).string() + "\nfrom the daemon|new|a b;$c\n");
}

TEST(RunCommand, LooksUpABareNameInThePathItWillRunWith) {
  companyos::testing::TempDir dir;
  const fs::path tool = dir.path() / "companyos-probe-tool";
  std::ofstream(tool) << "#!/bin/sh\necho probe ran\n";
  fs::permissions(tool, fs::perms::owner_all);
  CommandSpec spec = command({"companyos-probe-tool"});
  spec.env = {{"PATH", dir.path().string() + ":/usr/bin:/bin"}};
  auto ran = run_command(spec, kSystemClock);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->output, "probe ran\n");
}

TEST(RunCommand, RunsInItsOwnProcessGroup) {
  auto ran = run_command(shell_probe("ps -o pgid= -p $$"), kSystemClock);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(std::stoi(ran->output), ran->pid);
  EXPECT_NE(ran->pid, ::getpgrp());
}

TEST(RunCommand, TimeoutKillsTheWholeGroupAndReapsTheCommand) {
  companyos::testing::TempDir dir;
  const std::string pid_file = dir.file("grandchild");
  const auto started = Steady::now();
  auto ran =
      run_command(shell_probe("sleep 60 & echo $! > '" + pid_file + "'; wait", milliseconds(500)),
                  kSystemClock);
  const auto took = Steady::now() - started;
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->end, CommandEnd::kTimedOut);
  EXPECT_FALSE(ran->succeeded());
  EXPECT_TRUE(ran->signal.has_value());
  EXPECT_GE(took, milliseconds(500));
  EXPECT_LT(took, milliseconds(8000));
  EXPECT_GE(ran->duration, milliseconds(500));
  EXPECT_NE(ran->describe().find("timed out"), std::string::npos);
  EXPECT_TRUE(reaped(ran->pid));
  const pid_t grandchild = read_pid(pid_file);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(eventually([&] { return process_gone(grandchild); }))
      << "the grandchild survived the timeout";
}

TEST(RunCommand, ACommandIgnoringSigtermIsKilledAfterTheGrace) {
  companyos::testing::TempDir dir;
  const std::string ready = dir.file("ready");
  CommandSpec spec =
      shell_probe("trap '' TERM; echo $$ > '" + ready + "'; while :; do sleep 0.05; done",
                  milliseconds(60'000));
  spec.kill_grace = milliseconds(300);
  std::stop_source stop;
  std::thread stopper([&] {
    if (read_pid(ready) > 0) stop.request_stop();
  });
  auto ran = run_command(spec, kSystemClock, stop.get_token());
  stopper.join();
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->end, CommandEnd::kStopped);
  EXPECT_EQ(ran->signal, SIGKILL);
  EXPECT_LT(ran->duration, milliseconds(30'000));
  EXPECT_TRUE(reaped(ran->pid));
}

TEST(RunCommand, AStopFromAnotherThreadKillsTheGroup) {
  companyos::testing::TempDir dir;
  const std::string pid_file = dir.file("grandchild");
  std::stop_source stop;
  pid_t grandchild = 0;
  std::thread stopper([&] {
    grandchild = read_pid(pid_file);
    stop.request_stop();
  });
  const auto started = Steady::now();
  auto ran = run_command(
      shell_probe("sleep 60 & echo $! > '" + pid_file + "'; wait", milliseconds(60'000)),
      kSystemClock, stop.get_token());
  const auto took = Steady::now() - started;
  stopper.join();
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->end, CommandEnd::kStopped);
  EXPECT_EQ(ran->signal, SIGTERM) << "the shell dies of the SIGTERM within the grace";
  EXPECT_LT(took, milliseconds(30'000));
  EXPECT_NE(ran->describe().find("stopped"), std::string::npos);
  EXPECT_TRUE(reaped(ran->pid));
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(eventually([&] { return process_gone(grandchild); }))
      << "the grandchild survived the stop";
}

TEST(RunCommand, AStopBeforeTheStartRunsNothing) {
  companyos::testing::TempDir dir;
  const std::string marker = dir.file("ran");
  std::stop_source stop;
  stop.request_stop();
  auto ran = run_command(shell_probe("touch '" + marker + "'"), kSystemClock, stop.get_token());
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(ran->end, CommandEnd::kStopped);
  EXPECT_EQ(ran->pid, -1);
  EXPECT_EQ(ran->describe(), "stopped before it started");
  EXPECT_FALSE(fs::exists(marker));
}

TEST(RunCommand, WhatTheCommandLeftInItsGroupDoesNotOutliveTheStep) {
  companyos::testing::TempDir dir;
  const std::string pid_file = dir.file("left");
  const auto started = Steady::now();
  auto ran =
      run_command(shell_probe("sleep 60 & echo $! > '" + pid_file + "'; echo done"), kSystemClock);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_LT(Steady::now() - started, milliseconds(10'000));
  EXPECT_EQ(ran->end, CommandEnd::kExited);
  EXPECT_EQ(ran->exit_status, 0);
  EXPECT_EQ(ran->output, "done\n");
  const pid_t left = read_pid(pid_file);
  ASSERT_GT(left, 0);
  EXPECT_TRUE(eventually([&] { return process_gone(left); }));
}

// Each reading moves time on by a fixed step, so the runner's idea of time is the test's alone.
class SteppingClock final : public companyos::Clock {
 public:
  explicit SteppingClock(std::chrono::nanoseconds step) : step_(step) {}
  std::chrono::system_clock::time_point wall() const override { return {}; }
  std::chrono::steady_clock::time_point steady() const override {
    return std::chrono::steady_clock::time_point(step_ * ++reads_);
  }

 private:
  std::chrono::nanoseconds step_;
  mutable std::int64_t reads_ = 0;
};

TEST(RunCommand, TimeIsReadFromTheInjectedClock) {
  // Every look at the clock takes a second, far more than `true` really needs; an hour of
  // such looks is far more than the few it takes to see `true` end.
  const SteppingClock seconds(std::chrono::seconds(1));
  auto quick = run_command(command({"true"}, std::chrono::hours(1)), seconds);
  ASSERT_TRUE(quick.ok()) << quick.error().message;
  EXPECT_EQ(quick->end, CommandEnd::kExited);
  EXPECT_GE(quick->duration, std::chrono::seconds(1));
  EXPECT_EQ(quick->duration % std::chrono::seconds(1), milliseconds::zero());

  // Here every look takes an hour: the 10 s deadline has passed at the first one, however
  // fast the machine.
  const SteppingClock hours(std::chrono::hours(1));
  const auto started = Steady::now();
  auto slow = run_command(command({"sleep", "60"}, milliseconds(10'000)), hours);
  ASSERT_TRUE(slow.ok()) << slow.error().message;
  EXPECT_EQ(slow->end, CommandEnd::kTimedOut);
  EXPECT_LT(Steady::now() - started, milliseconds(8000));
  EXPECT_TRUE(reaped(slow->pid));
}

TEST(RunCommand, RefusesWhatCannotRunBeforeStartingAnything) {
  companyos::testing::TempDir dir;
  const fs::path plain_file = dir.path() / "plain";
  std::ofstream(plain_file) << "#!/bin/sh\n";
  fs::permissions(plain_file, fs::perms::owner_read | fs::perms::owner_write);
  struct Case {
    std::string what;
    CommandSpec spec;
    ErrorCode code;
    std::string message_part;
  };
  auto with = [](CommandSpec spec, auto change) {
    change(spec);
    return spec;
  };
  const CommandSpec ok = command({"true"});
  const Case cases[] = {
      {"no executable", with(ok, [](CommandSpec& s) { s.executable.clear(); }),
       ErrorCode::kInvalidArgs, "empty"},
      {"NUL in an argument",
       with(ok, [](CommandSpec& s) { s.arguments.push_back(std::string("a\0b", 3)); }),
       ErrorCode::kInvalidArgs, "NUL"},
      {"missing bare name",
       with(ok, [](CommandSpec& s) { s.executable = "companyos-no-such-tool"; }),
       ErrorCode::kNotFound, "companyos-no-such-tool"},
      {"missing absolute path",
       with(ok, [](CommandSpec& s) { s.executable = "/nonexistent/companyos-tool"; }),
       ErrorCode::kNotFound, "/nonexistent/companyos-tool"},
      {"relative program path", with(ok, [](CommandSpec& s) { s.executable = "./true"; }),
       ErrorCode::kInvalidArgs, "absolute"},
      {"not executable", with(ok, [&](CommandSpec& s) { s.executable = plain_file.string(); }),
       ErrorCode::kPermDenied, "not executable"},
      {"relative cwd", with(ok, [](CommandSpec& s) { s.cwd = "tmp"; }), ErrorCode::kInvalidArgs,
       "absolute"},
      {"empty cwd", with(ok, [](CommandSpec& s) { s.cwd = ""; }), ErrorCode::kInvalidArgs,
       "absolute"},
      {"cwd that does not exist",
       with(ok, [&](CommandSpec& s) { s.cwd = (dir.path() / "missing").string(); }),
       ErrorCode::kNotFound, "does not exist"},
      {"cwd that is a file", with(ok, [&](CommandSpec& s) { s.cwd = plain_file.string(); }),
       ErrorCode::kInvalidArgs, "not a directory"},
      {"bad env name",
       with(ok,
            [](CommandSpec& s) {
              s.env = {{"NOT A NAME", "x"}};
            }),
       ErrorCode::kInvalidArgs, "env name"},
      {"zero timeout", with(ok, [](CommandSpec& s) { s.timeout = milliseconds(0); }),
       ErrorCode::kInvalidArgs, "timeout"},
      {"negative grace", with(ok, [](CommandSpec& s) { s.kill_grace = milliseconds(-1); }),
       ErrorCode::kInvalidArgs, "grace"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto ran = run_command(c.spec, kSystemClock);
    ASSERT_FALSE(ran.ok()) << ran->describe();
    EXPECT_EQ(ran.error().code, c.code) << ran.error().message;
    EXPECT_NE(ran.error().message.find(c.message_part), std::string::npos) << ran.error().message;
  }
}

TEST(CommandSpec, ComesFromADefinitionsCommandLine) {
  CommandLine line;
  line.executable = "git";
  line.argv = {"status", "--short"};
  line.cwd = "/srv/repo";
  line.timeout_seconds = 90;
  line.env = {{"GIT_PAGER", "cat"}};
  const CommandSpec spec = command_spec(line, 1234);
  EXPECT_EQ(spec.executable, "git");
  EXPECT_EQ(spec.arguments, (std::vector<std::string>{"status", "--short"}));
  EXPECT_EQ(spec.cwd, "/srv/repo");
  EXPECT_EQ(spec.timeout, std::chrono::seconds(90));
  EXPECT_EQ(spec.env, line.env);
  EXPECT_EQ(spec.output_cap, 1234u);
  EXPECT_EQ(spec.kill_grace, kDefaultKillGrace);
  EXPECT_EQ(command_spec(line).output_cap, store::kStepOutputCap);
}

}  // namespace
}  // namespace companyos::automation
