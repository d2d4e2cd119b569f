#include "automation/command_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "automation/child_environment.h"
#include "automation/executable_lookup.h"
#include "automation/output_capture.h"
#include "automation/step_child.h"
#include "core/pipe_reading.h"
#include "core/process_spawn.h"
#include "core/unique_fd.h"

namespace companyos::automation {
namespace {

using std::chrono::milliseconds;
using SteadyTime = std::chrono::steady_clock::time_point;

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
    read_available(read_end_, [&capture](std::string_view bytes) {
      capture.append(bytes);
      return true;
    });
  }
 private:
  UniqueFd read_end_;
  UniqueFd write_end_;
};

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
      : child_(pid, kept, clock),
        output_(output),
        capture_(capture),
        clock_(clock),
        stop_(std::move(stop)),
        stop_signal_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
        on_stop_(stop_, WakeOnStop{stop_signal_.get()}) {}

  // Runs until the command exits, the deadline passes or a stop arrives; says which.
  CommandEnd watch(SteadyTime deadline) {
    while (!child_.has_exited()) {
      if (stop_.stop_requested()) return CommandEnd::kStopped;
      const SteadyTime now = clock_.steady();
      if (now >= deadline) return CommandEnd::kTimedOut;
      wait_for_activity(deadline - now, true);
    }
    return CommandEnd::kExited;
  }

  void terminate(milliseconds grace) { child_.terminate(grace, waiting()); }

  // Ends what is left and reaps the command; reads the last of its output.
  void finish(CommandResult& result) {
    child_.finish(waiting());
    result.exit_status = child_.exit_status();
    result.signal = child_.signal();
    output_.drain(capture_);
  }

 private:
  StepChild::Wait waiting() {
    return [this](std::chrono::steady_clock::duration limit) { wait_for_activity(limit, false); };
  }

  // Waits for output, the exit or (if `watch_stop`) a stop, at most `limit`; reads the output.
  void wait_for_activity(std::chrono::steady_clock::duration limit, bool watch_stop) {
    auto wait = std::chrono::ceil<milliseconds>(limit);
    if (child_.exit_fd() < 0 || !stop_signal_.valid()) wait = std::min(wait, StepChild::kExitPollInterval);
    wait_for_descriptors({output_.read_fd(), child_.exit_fd(), watch_stop ? stop_signal_.get() : -1}, {}, wait);
    output_.drain(capture_);
  }

  StepChild child_;
  OutputPipe& output_;
  OutputCapture& capture_;
  const Clock& clock_;
  std::stop_token stop_;
  UniqueFd stop_signal_;
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
  if (Status checked = check_step_cwd(spec.cwd); !checked) return std::move(checked).take_error();
  // Recorded before it starts, so no moment exists when it runs unrecorded; however the step
  // ends, what it started ends with it, escaped from its group or not.
  auto recorded = RecordedStep::open(groups, run_id);
  if (!recorded) return std::move(recorded).take_error();
  std::map<std::string, std::string> env = spec.env;
  if (recorded->token()) env[std::string(kStepTokenVariable)] = *recorded->token();
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
  const std::filesystem::path keeper = recorded->keeper();
  auto spawned = spawn_step_child(*program, spec.executable, spec.arguments, *environment, spec.cwd,
                                  {kNullDevice, output->write_fd(), output->write_fd()}, keeper);
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
