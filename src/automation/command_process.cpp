#include "automation/command_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "automation/child_environment.h"
#include "automation/executable_lookup.h"
#include "automation/output_capture.h"
#include "automation/step_keeper.h"
#include "core/process_spawn.h"
#include "core/unique_fd.h"

namespace companyos::automation {
namespace {

using std::chrono::milliseconds;
using SteadyTime = std::chrono::steady_clock::time_point;

// Without a pidfd (kernels before 5.3) or an eventfd, the exit and a stop are polled for at
// this interval.
constexpr milliseconds kExitPollInterval{10};
// How long a keeper told to end now may take to kill and reap what its command left.
constexpr milliseconds kKeeperEndLimit{5000};

Error system_error(const std::string& what, int error_number) {
  return make_error(ErrorCode::kInternal, what + ": " + std::strerror(error_number),
                    {{"errno", error_number}});
}

Status check_spec(const CommandSpec& spec) {
  for (std::size_t index = 0; index < spec.arguments.size(); ++index) {
    if (spec.arguments[index].find('\0') != std::string::npos) {
      return make_error(ErrorCode::kInvalidArgs,
                        "argument " + std::to_string(index) + " holds a NUL byte",
                        {{"index", index}});
    }
  }
  if (spec.timeout <= milliseconds::zero()) {
    return make_error(ErrorCode::kInvalidArgs, "the timeout must be positive");
  }
  if (spec.kill_grace < milliseconds::zero()) {
    return make_error(ErrorCode::kInvalidArgs, "the kill grace must not be negative");
  }
  return ok_status();
}

Status check_cwd(const std::string& cwd) {
  if (cwd.empty() || cwd.front() != '/' || cwd.find('\0') != std::string::npos) {
    return make_error(ErrorCode::kInvalidArgs, "cwd '" + cwd + "' must be an absolute path",
                      {{"cwd", cwd}}, "write the working directory as an absolute path");
  }
  struct stat info {};
  if (::stat(cwd.c_str(), &info) != 0) {
    if (errno == EACCES) {
      return make_error(ErrorCode::kPermDenied, "cwd '" + cwd + "' cannot be reached",
                        {{"cwd", cwd}});
    }
    return make_error(ErrorCode::kNotFound, "cwd '" + cwd + "' does not exist", {{"cwd", cwd}});
  }
  if (!S_ISDIR(info.st_mode)) {
    return make_error(ErrorCode::kInvalidArgs, "cwd '" + cwd + "' is not a directory",
                      {{"cwd", cwd}});
  }
  return ok_status();
}

// posix_spawn reports why the child could not start; the checks before it make most of these
// unlikely, but the file system may change in between.
Error spawn_error(Error error, const std::string& cwd) {
  error.details["cwd"] = cwd;
  switch (error.details.value("errno", 0)) {
    case ENOENT:
    case ENOTDIR:
      error.code = ErrorCode::kNotFound;
      break;
    case EACCES:
    case EPERM:
      error.code = ErrorCode::kPermDenied;
      break;
    case ENOEXEC:
    case E2BIG:
      error.code = ErrorCode::kInvalidArgs;
      break;
    default:
      break;  // as spawn_process said
  }
  return error;
}

// The one pipe the command's stdout and stderr both write to, so the output keeps its order.
class OutputPipe {
 public:
  static Result<OutputPipe> open() {
    std::array<int, 2> ends{};
    if (::pipe2(ends.data(), O_CLOEXEC) != 0) return system_error("pipe2", errno);
    OutputPipe pipe;
    pipe.read_end_.reset(ends[0]);
    pipe.write_end_.reset(ends[1]);
    ::fcntl(ends[0], F_SETFL, ::fcntl(ends[0], F_GETFL) | O_NONBLOCK);
    return pipe;
  }

  int write_fd() const { return write_end_.get(); }
  // Once the child holds its copy, the parent's must go, or the pipe never reaches its end.
  void close_write_end() { write_end_.reset(); }
  // -1 once the pipe reached its end.
  int read_fd() const { return read_end_.get(); }

  // Reads what the pipe holds now, without waiting; closes it at its end.
  void drain(OutputCapture& capture) {
    std::array<char, 16 * 1024> buffer{};
    while (read_end_.valid()) {
      const ssize_t got = ::read(read_end_.get(), buffer.data(), buffer.size());
      if (got > 0) {
        capture.append(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
      } else if (got < 0 && errno == EINTR) {
        continue;
      } else if (got < 0 && errno == EAGAIN) {
        return;
      } else {
        read_end_.reset();
      }
    }
  }

 private:
  UniqueFd read_end_;
  UniqueFd write_end_;
};

// A fresh process group, so a timeout or stop reaches everything the command started; stdin
// from /dev/null; stdout and stderr into the one pipe. With a keeper, the keeper is started in
// that group and the command under it, in a group of its own (step_keeper.h).
Result<pid_t> spawn(const std::string& program, const CommandSpec& spec,
                    const std::vector<std::string>& environment, const OutputPipe& output,
                    const std::filesystem::path& keeper) {
  KeeperArguments command;
  command.parent = ::getpid();
  command.program = program;
  command.argv.reserve(spec.arguments.size() + 1);
  command.argv.push_back(spec.executable);
  command.argv.insert(command.argv.end(), spec.arguments.begin(), spec.arguments.end());
  SpawnRequest request;
  if (keeper.empty()) {
    request.program = program;
    request.argv = std::move(command.argv);
  } else {
    request.program = keeper.string();
    request.argv = keeper_command_line(keeper, command);
  }
  request.environment = environment;
  request.cwd = spec.cwd;
  request.stdout_fd = output.write_fd();
  request.stderr_fd = output.write_fd();
  auto pid = spawn_process(request);
  if (!pid) return spawn_error(std::move(pid).take_error(), spec.cwd);
  return pid;
}

// A descriptor that becomes readable when `pid` exits, or -1. Through syscall(2) because
// glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
int open_exit_signal(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

void reap(pid_t pid, CommandResult& result) {
  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::waitpid(pid, &status, 0);
  } while (reaped < 0 && errno == EINTR);
  if (reaped != pid) return;  // reaped elsewhere: the status is unknown
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
}

// Wakes the supervising thread's poll when the caller asks for a stop from another thread.
struct WakeOnStop {
  int fd;
  void operator()() const noexcept {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(fd, &one, sizeof one);
  }
};

// Watches one running command (or its keeper): its output, its exit and the caller's stop
// request.
class Supervision {
 public:
  Supervision(pid_t pid, bool kept, OutputPipe& output, OutputCapture& capture, const Clock& clock,
              std::stop_token stop)
      : pid_(pid),
        kept_(kept),
        output_(output),
        capture_(capture),
        clock_(clock),
        stop_(std::move(stop)),
        exit_signal_(open_exit_signal(pid)),
        stop_signal_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
        on_stop_(stop_, WakeOnStop{stop_signal_.get()}) {}

  // Runs until the command exits, the deadline passes or a stop arrives; says which.
  CommandEnd watch(SteadyTime deadline) {
    while (!has_exited()) {
      if (stop_.stop_requested()) return CommandEnd::kStopped;
      const SteadyTime now = clock_.steady();
      if (now >= deadline) return CommandEnd::kTimedOut;
      wait_for_activity(deadline - now, true);
    }
    return CommandEnd::kExited;
  }

  // SIGTERM to the group (a keeper passes it to its command's), then up to `grace` for the
  // command to exit.
  void terminate(milliseconds grace) {
    if (reaped_elsewhere_) return;
    ::kill(-pid_, SIGTERM);
    const SteadyTime give_up = clock_.steady() + grace;
    while (!has_exited()) {
      const SteadyTime now = clock_.steady();
      if (now >= give_up) return;
      wait_for_activity(give_up - now, false);
    }
  }

  // SIGKILL to whatever is left of the group, the command included, then reaps the command.
  // A keeper is told to end everything itself first: killed, it could not.
  void finish(CommandResult& result) {
    if (kept_ && !has_exited()) {
      ::kill(pid_, kKeeperEndNow);
      const SteadyTime give_up = clock_.steady() + kKeeperEndLimit;
      while (!has_exited() && clock_.steady() < give_up) wait_for_activity(give_up - clock_.steady(), false);
    }
    if (!reaped_elsewhere_) {
      ::kill(-pid_, SIGKILL);
      reap(pid_, result);
    }
    output_.drain(capture_);
  }

 private:
  // Whether the command has exited, leaving it unreaped: while it is a zombie its pid, and so
  // its process group id, cannot be reused, which keeps kill(-pid, …) aimed at its group.
  bool has_exited() {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
      return info.si_pid == pid_;
    }
    if (errno == EINTR) return false;
    // ECHILD: someone else reaped it; its pid may already be reused, so no more signals.
    reaped_elsewhere_ = true;
    return true;
  }

  // Waits for output, the exit or (if `watch_stop`) a stop, at most `limit`; reads the output.
  void wait_for_activity(std::chrono::steady_clock::duration limit, bool watch_stop) {
    auto wait = std::chrono::ceil<milliseconds>(limit);
    if (!exit_signal_.valid() || !stop_signal_.valid()) wait = std::min(wait, kExitPollInterval);
    wait = std::min(wait, milliseconds(INT_MAX));
    std::array<pollfd, 3> watched{};
    nfds_t count = 0;
    if (output_.read_fd() >= 0) watched[count++] = {output_.read_fd(), POLLIN, 0};
    if (exit_signal_.valid()) watched[count++] = {exit_signal_.get(), POLLIN, 0};
    if (watch_stop && stop_signal_.valid()) watched[count++] = {stop_signal_.get(), POLLIN, 0};
    ::poll(watched.data(), count, static_cast<int>(wait.count()));
    output_.drain(capture_);
  }

  pid_t pid_;
  bool kept_;
  OutputPipe& output_;
  OutputCapture& capture_;
  const Clock& clock_;
  std::stop_token stop_;
  UniqueFd exit_signal_;
  UniqueFd stop_signal_;
  bool reaped_elsewhere_ = false;
  // Declared last: it is unregistered (waiting out a running callback) before the descriptor
  // the callback writes to is closed.
  std::stop_callback<WakeOnStop> on_stop_;
};

}  // namespace

std::string_view to_string(CommandEnd end) {
  switch (end) {
    case CommandEnd::kExited:
      return "exited";
    case CommandEnd::kSignalled:
      return "signalled";
    case CommandEnd::kTimedOut:
      return "timed_out";
    case CommandEnd::kStopped:
      return "stopped";
  }
  return "unknown";
}

std::string CommandResult::describe() const {
  switch (end) {
    case CommandEnd::kExited:
      return exit_status ? "exit status " + std::to_string(*exit_status)
                         : "exited with a status nobody could read";
    case CommandEnd::kSignalled:
      return "killed by signal " + std::to_string(signal.value_or(0));
    case CommandEnd::kTimedOut:
      return "timed out after " + std::to_string(duration.count()) +
             " ms; its process group was killed";
    case CommandEnd::kStopped:
      return pid < 0 ? "stopped before it started"
                     : "stopped after " + std::to_string(duration.count()) +
                           " ms; its process group was killed";
  }
  return "ended in an unknown way";
}

CommandSpec command_spec(const CommandLine& line, std::size_t output_cap) {
  CommandSpec spec;
  spec.executable = line.executable;
  spec.arguments = line.argv;
  spec.cwd = line.cwd;
  spec.env = line.env;
  spec.timeout = std::chrono::seconds(line.timeout_seconds);
  spec.output_cap = output_cap;
  return spec;
}

Result<CommandResult> run_command(const CommandSpec& spec, const Clock& clock,
                                  std::stop_token stop, StepProcessRecord* groups, std::int64_t run_id) {
  if (Status checked = check_spec(spec); !checked) return std::move(checked).take_error();
  if (Status checked = check_cwd(spec.cwd); !checked) return std::move(checked).take_error();
  if (groups != nullptr && groups->keeper().empty()) {
    return make_error(ErrorCode::kInternal,
                      "command steps cannot start: " + std::string(kStepKeeperName) + " is not installed",
                      {}, "reinstall companyos: " + std::string(kStepKeeperName) +
                              " belongs beside companyosd or in ../libexec/companyos from it");
  }
  // Recorded before it starts, so no moment exists when it runs unrecorded.
  std::optional<std::string> token;
  if (groups != nullptr) {
    auto added = groups->add(run_id);
    if (!added) return std::move(added).take_error();
    token = std::move(*added);
  }
  // However the step ends, what it started ends with it, escaped from its group or not.
  struct EndWithTheStep {
    StepProcessRecord* groups;
    const std::optional<std::string>& token;
    ~EndWithTheStep() {
      if (groups != nullptr && token) groups->end(*token);
    }
  } end_with_the_step{groups, token};
  std::map<std::string, std::string> env = spec.env;
  if (token) env[std::string(kStepTokenVariable)] = *token;
  auto environment = child_environment(daemon_environment(), env);
  if (!environment) return std::move(environment).take_error();
  auto program = resolve_executable(spec.executable, search_path_of(*environment));
  if (!program) return std::move(program).take_error();
  auto output = OutputPipe::open();
  if (!output) return std::move(output).take_error();

  CommandResult result;
  if (stop.stop_requested()) {
    result.end = CommandEnd::kStopped;
    return result;
  }
  const SteadyTime started = clock.steady();
  const std::filesystem::path keeper = groups != nullptr ? groups->keeper() : std::filesystem::path();
  auto spawned = spawn(*program, spec, *environment, *output, keeper);
  if (!spawned) return std::move(spawned).take_error();
  result.pid = *spawned;
  output->close_write_end();

  OutputCapture capture(spec.output_cap);
  Supervision supervision(result.pid, !keeper.empty(), *output, capture, clock, std::move(stop));
  result.end = supervision.watch(started + spec.timeout);
  if (result.end != CommandEnd::kExited) supervision.terminate(spec.kill_grace);
  supervision.finish(result);
  result.duration = std::chrono::duration_cast<milliseconds>(clock.steady() - started);
  if (result.end == CommandEnd::kExited && result.signal) result.end = CommandEnd::kSignalled;

  result.output_bytes = capture.total_bytes();
  result.output_truncated = capture.truncated();
  result.output = capture.text();
  return result;
}

}  // namespace companyos::automation
