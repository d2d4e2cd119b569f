// Runs the real companyosd and companyos binaries for process tests: a child with its
// output in files, a fixture with a private socket and store, and what a test reads of a
// running daemon from outside (/proc).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "socket_client.h"
#include "temp_dir.h"

namespace companyos::testing {

using namespace std::chrono_literals;

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Process {
  pid_t pid = -1;
  std::string stderr_path;
  int exit_status = -1;  // set by running() once it has seen the end

  // Exit status, or -1 if it did not exit in time.
  int wait(std::chrono::milliseconds timeout = 10s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) {
        pid = -1;
        if (WIFEXITED(status)) return WEXITSTATUS(status);
        return 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(5ms);
    }
    return -1;
  }
  // True while the process has neither exited nor been reaped.
  bool running() {
    if (pid <= 0) return false;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return false;
    }
    return true;
  }
  std::string stderr_text() const { return read_file(stderr_path); }
  ~Process() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
};

// Starts argv with stdout/stderr to files; `before_exec` runs in the child.
inline std::unique_ptr<Process> spawn(const std::vector<std::string>& argv, const std::string& out_dir,
                                      const std::function<void()>& before_exec = {}) {
  static std::atomic<int> counter{0};
  auto proc = std::make_unique<Process>();
  const int n = counter++;
  proc->stderr_path = out_dir + "/stderr-" + std::to_string(n);
  const std::string stdout_path = out_dir + "/stdout-" + std::to_string(n);
  pid_t pid = ::fork();
  if (pid == 0) {
    int err = ::open(proc->stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int out = ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(err, 2);
    ::dup2(out, 1);
    if (before_exec) before_exec();
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  proc->pid = pid;
  return proc;
}

struct CliResult {
  int exit_code;
  std::string out;
  std::string err;
};

// Polls `done` until it holds or the deadline passes; true when it held.
inline bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
}

// A /proc/PID/status field in kB (VmRSS, VmHWM), or nullopt when the process is gone.
inline std::optional<long> proc_status_kb(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return std::nullopt;
}

class DaemonProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::chmod(tmp_.path().c_str(), 0700), 0);
    socket_ = tmp_.file("run/control.sock");
    db_ = tmp_.file("state/companyos.db");
  }

  std::unique_ptr<Process> start_daemon(std::vector<std::string> extra = {},
                                        const std::function<void()>& before_exec = {}) {
    std::vector<std::string> argv = {COMPANYOSD_PATH, "--socket", socket_, "--db", db_};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return spawn(argv, tmp_.path().string(), before_exec);
  }

  std::unique_ptr<Process> start_serving(std::vector<std::string> extra = {},
                                         const std::function<void()>& before_exec = {}) {
    auto daemon = start_daemon(std::move(extra), before_exec);
    EXPECT_TRUE(wait_until_serving(socket_, 10s)) << daemon->stderr_text();
    return daemon;
  }

  CliResult cli(std::vector<std::string> args) {
    std::vector<std::string> argv = {COMPANYOS_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    auto proc = spawn(argv, tmp_.path().string());
    int code = proc->wait(30s);
    std::string out_path = proc->stderr_path;
    out_path.replace(out_path.rfind("stderr-"), 7, "stdout-");
    return CliResult{code, read_file(out_path), proc->stderr_text()};
  }

  TempDir tmp_;
  std::string socket_;
  std::string db_;
};

}  // namespace companyos::testing
