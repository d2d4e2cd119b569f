#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <thread>

extern char** environ;

namespace companyos::x11::testing {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> pointers;
  for (const std::string& arg : argv) pointers.push_back(const_cast<char*>(arg.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// Reaps `pid` if it has exited by `deadline`.
std::optional<int> reap_by(pid_t pid, Clock::time_point deadline) {
  while (true) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 || Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
};

struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  auto pointers = c_argv(argv);
  if (::posix_spawnp(&pid_, pointers[0], nullptr, nullptr, pointers.data(), environ) != 0) {
    pid_ = -1;
  }
}

ChildProcess::~ChildProcess() {
  if (pid_ <= 0 || reaped_) return;
  ::kill(pid_, SIGTERM);
  if (reap_by(pid_, Clock::now() + std::chrono::seconds(5))) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
}

std::optional<int> ChildProcess::wait_for_exit(std::chrono::milliseconds deadline) {
  if (pid_ <= 0 || reaped_) return std::nullopt;
  auto status = reap_by(pid_, Clock::now() + deadline);
  if (status) reaped_ = true;
  return status;
}

std::optional<std::string> run_for_output(const std::vector<std::string>& argv,
                                          std::chrono::milliseconds deadline) {
  std::array<int, 2> pipe_fds{};
  if (::pipe2(pipe_fds.data(), O_CLOEXEC) != 0) return std::nullopt;
  Descriptor read_end{pipe_fds[0]};
  Descriptor write_end{pipe_fds[1]};
  FileActions actions;
  posix_spawn_file_actions_adddup2(&actions.actions, write_end.fd, STDOUT_FILENO);
  auto pointers = c_argv(argv);
  pid_t pid = -1;
  if (::posix_spawnp(&pid, pointers[0], &actions.actions, nullptr, pointers.data(), environ) != 0) {
    return std::nullopt;
  }
  ::close(write_end.fd);
  write_end.fd = -1;

  const auto give_up = Clock::now() + deadline;
  std::string output;
  std::array<char, 4096> buffer{};
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - Clock::now());
    pollfd readable{read_end.fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&readable, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t got = ::read(read_end.fd, buffer.data(), buffer.size());
    if (got <= 0) break;
    output.append(buffer.data(), static_cast<std::size_t>(got));
  }
  auto status = reap_by(pid, give_up);
  if (!status) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return std::nullopt;
  }
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) return std::nullopt;
  return output;
}

}  // namespace companyos::x11::testing
