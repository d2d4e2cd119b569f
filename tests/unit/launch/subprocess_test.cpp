#include "launch/subprocess.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <stop_token>
#include <thread>

#include "temp_dir.h"

namespace companyos::launch {
namespace {

using std::chrono::milliseconds;

SubprocessSpec shell(const std::string& script, milliseconds timeout = milliseconds(5000),
                     std::size_t cap = kDefaultOutputCap, Capture capture = Capture::kPipe) {
  return {{"/bin/sh", "-c", script}, timeout, cap, capture};
}

// True once `pid` no longer runs (gone, or a zombie nobody reaped yet).
bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto state_at = line.rfind(')');
  return state_at == std::string::npos || line.at(state_at + 2) == 'Z';
}

bool wait_until_gone(pid_t pid, milliseconds deadline) {
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (!process_gone(pid)) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

TEST(RunSubprocess, ReportsHowTheProgramEnded) {
  struct Case {
    std::string script;
    std::optional<int> exit_status;
    std::optional<int> signal;
    std::string description;
  };
  const Case cases[] = {
      {"exit 0", 0, std::nullopt, "exit status 0"},
      {"exit 3", 3, std::nullopt, "exit status 3"},
      {"kill -TERM $$", std::nullopt, SIGTERM, "killed by signal 15"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.script);
    auto ran = run_subprocess(shell(c.script));
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_GT(ran->pid, 0);
    EXPECT_EQ(ran->exit_status, c.exit_status);
    EXPECT_EQ(ran->signal, c.signal);
    EXPECT_FALSE(ran->timed_out);
    EXPECT_EQ(ran->succeeded(), c.exit_status == 0);
    EXPECT_EQ(ran->describe(), c.description);
  }
}

TEST(RunSubprocess, CapturesBothStreamsInEitherMode) {
  for (Capture capture : {Capture::kPipe, Capture::kBoundedFile}) {
    SCOPED_TRACE(capture == Capture::kPipe ? "pipe" : "bounded file");
    auto ran = run_subprocess(
        shell("printf 'to stdout\\n'; printf 'to stderr' >&2", milliseconds(5000), 1024, capture));
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_EQ(ran->out, "to stdout\n");
    EXPECT_EQ(ran->err, "to stderr");
    EXPECT_FALSE(ran->out_truncated);
    EXPECT_FALSE(ran->err_truncated);
  }
}

TEST(RunSubprocess, CapsOutput) {
  struct Case {
    std::string_view what;
    Capture capture;
    std::string script;
    std::size_t cap;
    std::size_t expected_size;
  };
  const std::string many_lines = "i=0; while [ $i -lt 200 ]; do echo 0123456789; i=$((i+1)); done";
  const Case cases[] = {
      {"pipe keeps the first cap bytes", Capture::kPipe, "head -c 100000 /dev/zero", 1000, 1000},
      {"pipe, many small writes", Capture::kPipe, many_lines, 256, 256},
      {"bounded file, many small writes", Capture::kBoundedFile, many_lines, 256, 256},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    auto ran = run_subprocess(shell(c.script, milliseconds(5000), c.cap, c.capture));
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_TRUE(ran->out_truncated);
    EXPECT_EQ(ran->out.size(), c.expected_size);
    EXPECT_TRUE(ran->out.empty() || ran->out.front() == '0' || ran->out.front() == '\0');
  }
}

TEST(RunSubprocess, KillsTheWholeGroupAtTheDeadline) {
  companyos::testing::TempDir dir;
  const std::string pid_file = dir.file("sleeper");
  const auto started = std::chrono::steady_clock::now();
  auto ran =
      run_subprocess(shell("sleep 30 & echo $! > '" + pid_file + "'; wait", milliseconds(300)));
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_TRUE(ran->timed_out);
  EXPECT_EQ(ran->signal, SIGKILL);
  EXPECT_FALSE(ran->succeeded());
  EXPECT_GE(took, milliseconds(300));
  EXPECT_LT(took, milliseconds(3000));
  EXPECT_NE(ran->describe().find("deadline"), std::string::npos);

  pid_t sleeper = 0;
  std::ifstream(pid_file) >> sleeper;
  ASSERT_GT(sleeper, 0);
  EXPECT_TRUE(wait_until_gone(sleeper, milliseconds(5000))) << "the group's other member survived";
}

TEST(RunSubprocess, StopsWaitingWhenTheProgramExitsEvenIfAChildHoldsItsOutput) {
  companyos::testing::TempDir dir;
  const std::string pid_file = dir.file("sleeper");
  for (Capture capture : {Capture::kPipe, Capture::kBoundedFile}) {
    SCOPED_TRACE(capture == Capture::kPipe ? "pipe" : "bounded file");
    const auto started = std::chrono::steady_clock::now();
    auto ran = run_subprocess(shell("sleep 30 & echo $! > '" + pid_file + "'; echo started",
                                    milliseconds(10000), kDefaultOutputCap, capture));
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(5000));
    EXPECT_EQ(ran->exit_status, 0);
    EXPECT_EQ(ran->out, "started\n");
    ::kill(-ran->pid, SIGKILL);  // the sleeper left behind, still in the program's group
  }
}

TEST(RunSubprocess, AStopKillsTheProgramAloneAndLeavesWhatItStarted) {
  companyos::testing::TempDir dir;
  const std::string pid_file = dir.file("sleeper");
  auto sleeper_pid = [&pid_file] {
    pid_t pid = 0;
    std::ifstream(pid_file) >> pid;
    return pid;
  };
  std::stop_source source;
  SubprocessSpec spec = shell("sleep 30 & echo $! > '" + pid_file + "'; wait", milliseconds(20000));
  spec.stop = source.get_token();
  std::chrono::steady_clock::time_point asked;
  std::thread stopper([&] {
    // Once the program has started its child, so that there is something to leave running.
    const auto give_up = std::chrono::steady_clock::now() + milliseconds(10000);
    while (sleeper_pid() <= 0 && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(milliseconds(5));
    }
    asked = std::chrono::steady_clock::now();
    source.request_stop();
  });
  auto ran = run_subprocess(spec);
  const auto returned = std::chrono::steady_clock::now();
  stopper.join();
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_TRUE(ran->stopped);
  EXPECT_FALSE(ran->timed_out);
  EXPECT_EQ(ran->signal, SIGKILL);
  EXPECT_FALSE(ran->succeeded());
  EXPECT_LT(returned - asked, milliseconds(1000)) << "the stop was not seen promptly";
  EXPECT_NE(ran->describe().find("stopped after"), std::string::npos) << ran->describe();
  EXPECT_TRUE(process_gone(ran->pid));  // reaped

  const pid_t sleeper = sleeper_pid();
  ASSERT_GT(sleeper, 0);
  EXPECT_FALSE(process_gone(sleeper)) << "what the program started was killed too";
  ::kill(sleeper, SIGKILL);
  EXPECT_TRUE(wait_until_gone(sleeper, milliseconds(5000)));
}

TEST(RunSubprocess, AStopBeforeTheStartRunsNothing) {
  companyos::testing::TempDir dir;
  const std::string marker = dir.file("ran");
  std::stop_source source;
  source.request_stop();
  SubprocessSpec spec = shell("touch '" + marker + "'");
  spec.stop = source.get_token();
  auto ran = run_subprocess(spec);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_TRUE(ran->stopped);
  EXPECT_EQ(ran->pid, -1);
  EXPECT_FALSE(ran->succeeded());
  EXPECT_EQ(ran->describe(), "stopped before it started");
  // A run without the stop shows the marker would have appeared.
  EXPECT_FALSE(std::ifstream(marker).good());
  ASSERT_TRUE(run_subprocess(shell("touch '" + marker + "'")).ok());
  EXPECT_TRUE(std::ifstream(marker).good());
}

TEST(RunSubprocess, RunsInItsOwnGroupWithNothingInherited) {
  const int leaked = ::open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC
  ASSERT_GE(leaked, 0);
  const std::string fd = std::to_string(leaked);
  struct Case {
    std::string script;
    std::string expected_out;
  };
  const Case cases[] = {
      {"cat", ""},  // stdin is /dev/null, so cat ends at once
      {"test -e /proc/$$/fd/" + fd + " && echo leaked || echo closed", "closed\n"},
      {"[ \"$(cut -d' ' -f5 /proc/$$/stat)\" = $$ ] && echo own-group", "own-group\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.script);
    auto ran = run_subprocess(shell(c.script, milliseconds(5000)));
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_FALSE(ran->timed_out);
    EXPECT_EQ(ran->out, c.expected_out);
  }
  ::close(leaked);
}

TEST(RunSubprocess, SearchesPathOnlyForBareNames) {
  auto bare = run_subprocess({{"sh", "-c", "exit 0"}, milliseconds(5000)});
  ASSERT_TRUE(bare.ok()) << bare.error().message;
  EXPECT_EQ(bare->exit_status, 0);

  struct Case {
    std::vector<std::string> argv;
    ErrorCode code;
  };
  const Case cases[] = {
      {{"/no/such/program"}, ErrorCode::kInternal},
      {{"companyos-no-such-program"}, ErrorCode::kInternal},
      {{"./relative/missing"}, ErrorCode::kInternal},
      {{""}, ErrorCode::kInvalidArgs},
      {{}, ErrorCode::kInvalidArgs},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.argv.empty() ? "(empty)" : c.argv.front());
    auto ran = run_subprocess({c.argv, milliseconds(1000)});
    ASSERT_FALSE(ran.ok());
    EXPECT_EQ(ran.error().code, c.code);
  }
}

}  // namespace
}  // namespace companyos::launch
