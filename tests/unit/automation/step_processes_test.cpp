#include "automation/step_processes.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "automation/command_process.h"
#include "core/clock.h"
#include "core/process_spawn.h"

namespace companyos::automation {
namespace {

using namespace std::string_view_literals;

TEST(StepRecordText, RoundTripsAndRefusesTornOrForeignText) {
  const auto parsed = parse_record("tok", format_record(StepRecord{"tok", "boot-a", 7}));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->token, "tok");
  EXPECT_EQ(parsed->boot_id, "boot-a");
  EXPECT_EQ(parsed->run_id, 7);
  for (const char* bad : {"", "boot-a 7", " 7\n", "boot-a x\n", "boot-a 7x\n", "boot-a \n"}) {
    EXPECT_FALSE(parse_record("tok", bad)) << bad;
  }
  EXPECT_FALSE(parse_record("", "boot-a 7\n"));
}

TEST(StepToken, IsFoundOnlyAsAWholeEntry) {
  const std::string_view environ = "PATH=/bin\0COMPANYOS_STEP_TOKEN=abc\0HOME=/h\0"sv;
  EXPECT_TRUE(carries_token(environ, "abc"));
  EXPECT_FALSE(carries_token(environ, "ab"));
  EXPECT_FALSE(carries_token("COMPANYOS_STEP_TOKEN=abcd\0"sv, "abc"));
  EXPECT_FALSE(carries_token("X_COMPANYOS_STEP_TOKEN=abc\0"sv, "abc"));
  EXPECT_TRUE(carries_token("COMPANYOS_STEP_TOKEN=abc"sv, "abc"));  // no trailing NUL
  EXPECT_FALSE(carries_token(""sv, "abc"));
}

class StepProcessRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/companyos-steps-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    root_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  // A sleeping child in a group of its own, with `environment`, as a command step runs.
  pid_t sleeper(std::vector<std::string> environment) {
    SpawnRequest request;
    request.program = "sleep";
    request.argv = {"sleep", "300"};
    request.environment = std::move(environment);
    auto pid = spawn_process(request);
    EXPECT_TRUE(pid) << pid.error().message;
    return pid ? *pid : -1;
  }

  // The signal that ended the child, waiting at most 10 s; nullopt if it did not end so.
  std::optional<int> end_signal(pid_t pid) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        return WIFSIGNALED(status) ? std::optional<int>(WTERMSIG(status)) : std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
  }

  // Until the child's environment shows `token` (at most 5 s): posix_spawn returns while
  // exec still sets up the new program's environment, which /proc shows empty till then.
  bool shows_token(pid_t pid, const std::string& token) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < until) {
      std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
      const std::string environ((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (carries_token(environ, token)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  std::filesystem::path root_;
};

TEST_F(StepProcessRecordTest, TheNextDaemonKillsWhatCarriesARecordedTokenAndNothingElse) {
  std::string token;
  {
    StepProcessRecord record(root_ / "steps");
    auto added = record.add(9);
    ASSERT_TRUE(added) << added.error().message;
    token = *added;
  }  // the daemon that recorded it is gone
  const pid_t ours = sleeper({"PATH=/usr/bin:/bin", std::string(kStepTokenVariable) + "=" + token});
  const pid_t other = sleeper({"PATH=/usr/bin:/bin", std::string(kStepTokenVariable) + "=someone-else"});
  ASSERT_GT(ours, 0);
  ASSERT_GT(other, 0);
  ASSERT_TRUE(shows_token(ours, token));
  ASSERT_TRUE(shows_token(other, "someone-else"));
  StepProcessRecord next(root_ / "steps");
  const auto killed = next.kill_left_over();
  ASSERT_EQ(killed.size(), 1u);
  EXPECT_EQ(killed[0].run_id, 9);
  EXPECT_EQ(killed[0].pids, std::vector<pid_t>{ours});
  EXPECT_EQ(end_signal(ours), SIGKILL);
  EXPECT_EQ(::waitpid(other, nullptr, WNOHANG), 0) << "a process without the token still runs";
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "steps"));
  EXPECT_TRUE(next.kill_left_over().empty());
  ::kill(-other, SIGKILL);
  EXPECT_EQ(end_signal(other), SIGKILL);
}

TEST_F(StepProcessRecordTest, ARecordOfAnotherBootIsDropped) {
  std::filesystem::create_directories(root_ / "steps");
  std::ofstream(root_ / "steps" / "tok") << format_record(StepRecord{"tok", "another-boot", 3});
  StepProcessRecord next(root_ / "steps");
  EXPECT_TRUE(next.kill_left_over().empty());
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "steps"));
}

TEST_F(StepProcessRecordTest, ACommandIsRecordedOnlyWhileItRunsAndCarriesItsToken) {
  StepProcessRecord record(root_ / "steps");
  CommandSpec spec;
  spec.executable = "sh";
  // From inside the step: its record's name, and the token it was given.
  spec.arguments = {"-c", "ls " + (root_ / "steps").string() + "; echo \"$COMPANYOS_STEP_TOKEN\""};
  spec.cwd = "/";
  const SystemClock clock;
  auto result = run_command(spec, clock, {}, &record, 5);
  ASSERT_TRUE(result) << result.error().message;
  const auto newline = result->output.find('\n');
  ASSERT_NE(newline, std::string::npos) << result->output;
  const std::string listed = result->output.substr(0, newline);
  EXPECT_FALSE(listed.empty());
  EXPECT_EQ(result->output, listed + "\n" + listed + "\n");
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "steps"));
}

// A step whose script starts `setsid … &` leaves a process in a session of its own, which
// the kill of the step's group cannot reach; it still carries the step's token, so it ends
// with the step (it used to outlive the step, and a daemon restart: the record was gone).
TEST_F(StepProcessRecordTest, WhatEscapedTheGroupEndsWithTheStep) {
  StepProcessRecord record(root_ / "steps");
  const std::string pid_file = (root_ / "escaped").string();
  CommandSpec spec;
  spec.executable = "sh";
  spec.arguments = {"-c", "setsid sleep 300 & echo $! > '" + pid_file + "'; while ! ps -o sid= -p $! | "
                          "grep -qw $!; do :; done; echo escaped"};
  spec.cwd = "/";
  const SystemClock clock;
  auto result = run_command(spec, clock, {}, &record, 6);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->output, "escaped\n");
  std::ifstream in(pid_file);
  pid_t escaped = 0;
  in >> escaped;
  ASSERT_GT(escaped, 0);
  // Killed, not yet reaped (it is not our child: its parent, the shell, is gone).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool gone = false;
  while (!gone && std::chrono::steady_clock::now() < until) {
    std::ifstream stat("/proc/" + std::to_string(escaped) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto state_at = line.rfind(')');
    gone = !stat.is_open() || line.empty() || (state_at != std::string::npos && line.size() > state_at + 2 &&
                                               line[state_at + 2] == 'Z');
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone) << "process " << escaped << " outlived its step";
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "steps"));
}

TEST_F(StepProcessRecordTest, ACommandThatCannotBeRecordedDoesNotStart) {
  std::ofstream(root_ / "file") << "not a directory";
  StepProcessRecord record(root_ / "file");
  CommandSpec spec;
  spec.executable = "touch";
  spec.arguments = {(root_ / "ran").string()};
  spec.cwd = "/";
  const SystemClock clock;
  auto result = run_command(spec, clock, {}, &record, 5);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::kInternal);
  EXPECT_FALSE(std::filesystem::exists(root_ / "ran"));
}

}  // namespace
}  // namespace companyos::automation
