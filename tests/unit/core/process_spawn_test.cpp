#include "core/process_spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "core/unique_fd.h"

namespace companyos {
namespace {

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

Pipe make_pipe() {
  std::array<int, 2> ends{-1, -1};
  EXPECT_EQ(::pipe2(ends.data(), O_CLOEXEC), 0);
  return {UniqueFd(ends[0]), UniqueFd(ends[1])};
}

// Reaps `pid`; its exit status, or nullopt if a signal ended it.
std::optional<int> reap(pid_t pid) {
  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::waitpid(pid, &status, 0);
  } while (reaped < 0 && errno == EINTR);
  EXPECT_EQ(reaped, pid);
  if (reaped != pid || !WIFEXITED(status)) return std::nullopt;
  return WEXITSTATUS(status);
}

SpawnRequest run(std::string program, std::vector<std::string> argv = {}) {
  SpawnRequest request;
  request.program = std::move(program);
  request.argv = std::move(argv);
  return request;
}

// `request` changed by `change`, for a table's rows.
template <typename Change>
SpawnRequest with(SpawnRequest request, Change change) {
  change(request);
  return request;
}

std::string read_all(UniqueFd& fd) {
  std::string text;
  std::array<char, 1024> buffer{};
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return text;
    text.append(buffer.data(), static_cast<std::size_t>(got));
  }
}

TEST(SpawnProcess, RunsTheArgumentVectorAndTheCallerReapsIt) {
  struct Case {
    std::string program;
    std::vector<std::string> argv;
    int exit_status;
  };
  const Case cases[] = {
      {"/bin/true", {}, 0},
      {"/bin/true", {"/bin/true"}, 0},
      {"/bin/sh", {"sh", "-c", "exit 3"}, 3},
      {"sh", {"sh", "-c", "exit 4"}, 4},  // a bare name is searched in PATH
      // One argument each, however shell-like: nothing runs the words through a shell.
      {"/bin/sh", {"sh", "-c", "[ \"$1\" = 'a b;exit 9' ] && exit 5", "sh", "a b;exit 9"}, 5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.program + (c.argv.size() > 2 ? " " + c.argv[2] : ""));
    auto pid = spawn_process(run(c.program, c.argv));
    ASSERT_TRUE(pid.ok()) << pid.error().message;
    EXPECT_GT(*pid, 0);
    EXPECT_EQ(reap(*pid), c.exit_status);
  }
}

TEST(SpawnProcess, RefusesWhatCannotStart) {
  struct Case {
    std::string what;
    SpawnRequest request;
    ErrorCode code;
    std::optional<int> error_number;  // details.errno, when posix_spawn said why
  };
  const SpawnRequest true_program = run("/bin/true");
  const Case cases[] = {
      {"missing absolute program", run("/no/such/program"), ErrorCode::kInternal, ENOENT},
      {"missing bare name", run("companyos-no-such-program"), ErrorCode::kInternal, ENOENT},
      {"not executable", run("/dev/null"), ErrorCode::kInternal, EACCES},
      {"missing cwd", with(true_program, [](SpawnRequest& r) { r.cwd = "/no/such/dir"; }),
       ErrorCode::kInternal, ENOENT},
      {"empty program", run(""), ErrorCode::kInvalidArgs, std::nullopt},
      {"NUL in the program", run(std::string("/bin/tr\0ue", 10)), ErrorCode::kInvalidArgs,
       std::nullopt},
      {"NUL in an argument", run("/bin/true", {"true", std::string("a\0b", 3)}),
       ErrorCode::kInvalidArgs, std::nullopt},
      {"NUL in the environment",
       with(true_program,
            [](SpawnRequest& r) { r.environment = {{std::string("A=\0", 3)}}; }),
       ErrorCode::kInvalidArgs, std::nullopt},
      {"NUL in the cwd", with(true_program, [](SpawnRequest& r) { r.cwd = std::string("/\0tmp", 5); }),
       ErrorCode::kInvalidArgs, std::nullopt},
      {"bad descriptor", with(true_program, [](SpawnRequest& r) { r.stdout_fd = -2; }),
       ErrorCode::kInvalidArgs, std::nullopt},
  };

  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto pid = spawn_process(c.request);
    ASSERT_FALSE(pid.ok()) << "started pid " << *pid;
    EXPECT_EQ(pid.error().code, c.code) << pid.error().message;
    if (c.error_number) {
      EXPECT_EQ(pid.error().details.value("errno", 0), *c.error_number);
      EXPECT_EQ(pid.error().details.value("program", ""), c.request.program);
      EXPECT_NE(pid.error().message.find(std::strerror(*c.error_number)), std::string::npos)
          << pid.error().message;
    }
  }
}

TEST(SpawnProcess, PutsTheChildInItsOwnProcessGroupOnlyWhenAsked) {
  for (bool own_group : {true, false}) {
    SCOPED_TRACE(own_group ? "own group" : "caller's group");
    // The child waits on its stdin, so its group can be read while it surely runs.
    Pipe input = make_pipe();
    SpawnRequest request = run("/bin/sh", {"sh", "-c", "read line"});
    request.stdin_fd = input.read_end.get();
    request.new_process_group = own_group;
    auto pid = spawn_process(request);
    ASSERT_TRUE(pid.ok()) << pid.error().message;
    EXPECT_EQ(::getpgid(*pid), own_group ? *pid : ::getpgrp());
    input.write_end.reset();  // end of file: read returns
    EXPECT_EQ(reap(*pid), 1);
  }
}

TEST(SpawnProcess, GivesTheChildItsStreamsEnvironmentAndCwdAndNothingElse) {
  const UniqueFd leaked(::open("/dev/null", O_RDONLY));  // deliberately without O_CLOEXEC
  ASSERT_TRUE(leaked.valid());
  Pipe output = make_pipe();
  const std::string script =
      "echo \"$GREETING\"; pwd; echo to-stderr >&2; cat; "
      "test -e /proc/$$/fd/" + std::to_string(leaked.get()) + " && echo leaked || echo closed; "
      "exec grep SigBlk /proc/self/status";

  // A blocked signal on the spawning thread must not reach the child.
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigset_t previous;
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &usr1, &previous), 0);
  SpawnRequest request = run("/bin/sh", {"sh", "-c", script});
  request.environment = {{"GREETING=hello there", "PATH=/usr/bin:/bin"}};
  request.cwd = "/";
  request.stdout_fd = output.write_end.get();
  request.stderr_fd = output.write_end.get();
  auto pid = spawn_process(request);
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ASSERT_TRUE(pid.ok()) << pid.error().message;
  output.write_end.reset();
  // cat ends at once: stdin is /dev/null.
  EXPECT_EQ(read_all(output.read_end),
            "hello there\n/\nto-stderr\nclosed\nSigBlk:\t0000000000000000\n");
  EXPECT_EQ(reap(*pid), 0);
}

}  // namespace
}  // namespace companyos
