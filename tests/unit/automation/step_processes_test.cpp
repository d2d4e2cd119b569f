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
#include "automation/step_keeper.h"
#include "core/clock.h"
#include "core/process_spawn.h"

namespace companyos::automation {
namespace {

using namespace std::string_view_literals;

const std::filesystem::path kKeeper = COMPANYOS_STEP_KEEPER;

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

  CommandSpec shell(const std::string& script) const {
    CommandSpec spec;
    spec.executable = "sh";
    spec.arguments = {"-c", script};
    spec.cwd = "/";
    return spec;
  }

  // Shell lines that spin until `pid` leads a session of its own (setsid has run).
  static std::string wait_for_own_session(const std::string& pid) {
    return "while ! ps -o sid= -p " + pid + " | grep -qw " + pid + "; do :; done; ";
  }

  std::string pid_file(const std::string& name) const { return (root_ / name).string(); }

  // The pid a script wrote to pid_file(name), waiting up to `patience` for it; 0 if none.
  pid_t read_pid(const std::string& name, std::chrono::milliseconds patience = std::chrono::milliseconds(0)) const {
    const auto until = std::chrono::steady_clock::now() + patience;
    do {
      std::ifstream in(pid_file(name));
      pid_t pid = 0;
      if (in >> pid && pid > 0) return pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (std::chrono::steady_clock::now() < until);
    return 0;
  }

  // Whether `pid` is gone or a zombie within `patience` (it is not our child: nobody here
  // reaps it).
  static bool ends_within(pid_t pid, std::chrono::milliseconds patience) {
    const auto until = std::chrono::steady_clock::now() + patience;
    do {
      std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
      std::string line;
      std::getline(stat, line);
      const auto state_at = line.rfind(')');
      if (!stat.is_open() || line.empty() ||
          (state_at != std::string::npos && line.size() > state_at + 2 && line[state_at + 2] == 'Z')) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (std::chrono::steady_clock::now() < until);
    return false;
  }

  std::filesystem::path root_;
  const SystemClock clock_;
};

TEST_F(StepProcessRecordTest, TheNextDaemonKillsWhatCarriesARecordedTokenAndNothingElse) {
  std::string token;
  {
    StepProcessRecord record(root_ / "steps", kKeeper);
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
  StepProcessRecord next(root_ / "steps", kKeeper);
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
  StepProcessRecord next(root_ / "steps", kKeeper);
  EXPECT_TRUE(next.kill_left_over().empty());
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "steps"));
}

TEST_F(StepProcessRecordTest, ACommandIsRecordedOnlyWhileItRunsAndCarriesItsToken) {
  StepProcessRecord record(root_ / "steps", kKeeper);
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
  StepProcessRecord record(root_ / "steps", kKeeper);
  auto result = run_command(shell("setsid sleep 300 & echo $! > '" + pid_file("escaped") + "'; " +
                                  wait_for_own_session("$!") + "echo escaped"),
                            clock_, {}, &record, 6);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->output, "escaped\n");
  const pid_t escaped = read_pid("escaped");
  ASSERT_GT(escaped, 0);
  EXPECT_TRUE(ends_within(escaped, std::chrono::seconds(10))) << "process " << escaped << " outlived its step";
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "steps"));
}

// Without the token and out of the group — `setsid env -i …`, and a daemon's double fork —
// nothing but the keeper can still find them: they are its descendants.
TEST_F(StepProcessRecordTest, WhatClearedItsEnvironmentAndLeftTheGroupEndsWithTheStep) {
  StepProcessRecord record(root_ / "steps", kKeeper);
  auto result = run_command(
      shell("setsid env -i /bin/sleep 300 & echo $! > '" + pid_file("cleared") + "'; " +
            wait_for_own_session("$!") +
            "setsid env -i /bin/sh -c 'sleep 300 & echo $! > \"$0\"' '" + pid_file("forked") + "'; "
            "while [ ! -s '" + pid_file("forked") + "' ]; do :; done; echo escaped"),
      clock_, {}, &record, 7);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->output, "escaped\n");
  for (const char* name : {"cleared", "forked"}) {
    const pid_t escaped = read_pid(name);
    ASSERT_GT(escaped, 0) << name;
    EXPECT_TRUE(ends_within(escaped, std::chrono::seconds(10))) << name << " process outlived its step";
  }
}

// A step cut by its deadline, whose command ignores SIGTERM and left an escapee: the keeper is
// told to end everything, and does.
TEST_F(StepProcessRecordTest, ATimedOutStepEndsEverythingItStarted) {
  StepProcessRecord record(root_ / "steps", kKeeper);
  CommandSpec spec = shell("trap '' TERM; setsid env -i /bin/sleep 300 & echo $! > '" + pid_file("escaped") +
                           "'; while :; do sleep 1; done");
  spec.timeout = std::chrono::milliseconds(500);
  spec.kill_grace = std::chrono::milliseconds(200);
  auto result = run_command(spec, clock_, {}, &record, 8);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->end, CommandEnd::kTimedOut);
  const pid_t escaped = read_pid("escaped");
  ASSERT_GT(escaped, 0);
  EXPECT_TRUE(ends_within(escaped, std::chrono::seconds(10)));
}

// The daemon killed outright (SIGKILL, an OOM kill): the keeper's parent-death signal makes
// it end the step's processes at once, before any new daemon starts.
TEST_F(StepProcessRecordTest, AStepsProcessesEndWhenItsDaemonDies) {
  SpawnRequest request;
  request.program = "/bin/sh";
  // The stand-in daemon: a shell that starts the keeper as a command step would.
  request.argv = {"/bin/sh", "-c",
                  "\"$0\" --parent $$ -- /bin/sh sh -c 'setsid env -i /bin/sleep 300 & echo $! > \"$0\"; "
                  "sleep 300' \"$1\" & echo $! > \"$2\"; wait",
                  kKeeper.string(), pid_file("escaped"), pid_file("keeper")};
  auto daemon = spawn_process(request);
  ASSERT_TRUE(daemon) << daemon.error().message;
  const pid_t escaped = read_pid("escaped", std::chrono::seconds(10));
  const pid_t keeper = read_pid("keeper", std::chrono::seconds(10));
  ASSERT_GT(escaped, 0);
  ASSERT_GT(keeper, 0);
  ASSERT_FALSE(ends_within(escaped, std::chrono::milliseconds(100))) << "nothing ended it yet";
  ::kill(*daemon, SIGKILL);
  EXPECT_EQ(end_signal(*daemon), SIGKILL);
  EXPECT_TRUE(ends_within(escaped, std::chrono::seconds(10))) << "the step's process outlived its daemon";
  EXPECT_TRUE(ends_within(keeper, std::chrono::seconds(10))) << "the keeper outlived its daemon";
}

// Through the keeper, a command ends as it would have without it.
TEST_F(StepProcessRecordTest, ACommandUnderTheKeeperEndsAsItWould) {
  const std::filesystem::path garbage = root_ / "garbage";
  std::ofstream(garbage) << "not a program: no #! line\n";
  std::filesystem::permissions(garbage, std::filesystem::perms::owner_all);
  struct Case {
    std::string name;
    CommandSpec spec;
    CommandEnd end;
    std::optional<int> exit_status;
    std::optional<int> signal;
    std::string output;
  };
  CommandSpec unstartable;
  unstartable.executable = garbage.string();
  unstartable.cwd = "/";
  const std::vector<Case> cases = {
      {"exit 0", shell("echo hi"), CommandEnd::kExited, 0, std::nullopt, "hi\n"},
      {"exit 3", shell("exit 3"), CommandEnd::kExited, 3, std::nullopt, ""},
      {"signal", shell("kill -USR2 $$"), CommandEnd::kSignalled, std::nullopt, SIGUSR2, ""},
      {"cannot start", unstartable, CommandEnd::kExited, kKeeperCannotStart, std::nullopt,
       "companyos-step-keeper: cannot start '" + garbage.string() + "': Exec format error\n"},
  };
  StepProcessRecord record(root_ / "steps", kKeeper);
  for (const Case& c : cases) {
    auto result = run_command(c.spec, clock_, {}, &record, 9);
    ASSERT_TRUE(result) << c.name << ": " << result.error().message;
    EXPECT_EQ(result->end, c.end) << c.name;
    EXPECT_EQ(result->exit_status, c.exit_status) << c.name;
    EXPECT_EQ(result->signal, c.signal) << c.name;
    EXPECT_EQ(result->output, c.output) << c.name;
  }
}

TEST_F(StepProcessRecordTest, WithoutAKeeperNoCommandStarts) {
  StepProcessRecord record(root_ / "steps", "");
  CommandSpec spec;
  spec.executable = "touch";
  spec.arguments = {(root_ / "ran").string()};
  spec.cwd = "/";
  auto result = run_command(spec, clock_, {}, &record, 5);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::kInternal);
  EXPECT_NE(result.error().message.find("companyos-step-keeper"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(root_ / "ran"));
}

TEST_F(StepProcessRecordTest, ACommandThatCannotBeRecordedDoesNotStart) {
  std::ofstream(root_ / "file") << "not a directory";
  StepProcessRecord record(root_ / "file", kKeeper);
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
