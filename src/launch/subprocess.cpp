#include "launch/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "core/pipe_reading.h"
#include "core/process_spawn.h"
#include "core/unique_fd.h"

namespace companyos::launch {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Without a pidfd (kernels before 5.3) the wait polls for the exit at this interval; while a
// stop can come, it is looked for at this interval too.
constexpr std::chrono::milliseconds kExitPollInterval{10};

Error system_error(const std::string& what, int error_number) {
  return make_error(ErrorCode::kInternal, what + ": " + std::strerror(error_number),
                    {{"errno", error_number}});
}

// One captured output stream: the descriptor the child writes to and how the parent reads it.
class CapturedStream {
 public:
  static Result<CapturedStream> open(Capture capture, std::size_t cap) {
    CapturedStream stream;
    stream.capture_ = capture;
    stream.cap_ = cap;
    if (capture == Capture::kPipe) {
      std::array<int, 2> ends{};
      if (::pipe2(ends.data(), O_CLOEXEC) != 0) return system_error("pipe2", errno);
      stream.read_end_.reset(ends[0]);
      stream.child_end_.reset(ends[1]);
      ::fcntl(ends[0], F_SETFL, ::fcntl(ends[0], F_GETFL) | O_NONBLOCK);
      return stream;
    }
    UniqueFd file(::memfd_create("companyos-output", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (!file.valid()) return system_error("memfd_create", errno);
    // Twice the cap, so that the write crossing the cap still lands and shows the truncation.
    if (::ftruncate(file.get(), static_cast<off_t>(2 * cap)) != 0 ||
        ::fcntl(file.get(), F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0) {
      return system_error("sealing the output file", errno);
    }
    stream.child_end_ = std::move(file);
    return stream;
  }

  int child_fd() const { return child_end_.get(); }
  // The pipe end to poll, or -1 once it is closed (or for a file).
  int poll_fd() const { return read_end_.get(); }

  // After spawning: the parent no longer needs the pipe's write end.
  void release_child_end() {
    if (capture_ == Capture::kPipe) child_end_.reset();
  }

  // Reads what the pipe holds now; closes it at end of file.
  void drain() {
    read_available(read_end_, [this](std::string_view bytes) {
      keep(bytes.data(), bytes.size());
      return true;
    });
  }

  // Final read once the program ended: the rest of the pipe, or the file up to the shared
  // offset the program (and any child of it) wrote to.
  void finish() {
    if (capture_ == Capture::kPipe) {
      drain();
      read_end_.reset();
      return;
    }
    const off_t written = ::lseek(child_end_.get(), 0, SEEK_CUR);
    if (written <= 0) return;
    const auto length = std::min(static_cast<std::size_t>(written), cap_);
    text_.resize(length);
    const ssize_t got = ::pread(child_end_.get(), text_.data(), length, 0);
    text_.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    truncated_ = static_cast<std::size_t>(written) > cap_;
  }

  std::string take_text() { return std::move(text_); }
  bool truncated() const { return truncated_; }

 private:
  void keep(const char* data, std::size_t size) {
    const std::size_t room = cap_ - std::min(cap_, text_.size());
    if (size > room) truncated_ = true;
    text_.append(data, std::min(size, room));
  }

  Capture capture_ = Capture::kPipe;
  std::size_t cap_ = 0;
  UniqueFd read_end_;
  UniqueFd child_end_;
  std::string text_;
  bool truncated_ = false;
};

// Stdin from /dev/null and a fresh process group, so a timeout can kill everything it started.
Result<pid_t> spawn(const SubprocessSpec& spec, const CapturedStream& out,
                    const CapturedStream& err) {
  SpawnRequest request;
  request.program = spec.argv.front();
  request.argv = spec.argv;
  request.stdout_fd = out.child_fd();
  request.stderr_fd = err.child_fd();
  auto pid = spawn_process(request);
  if (!pid) {
    Error error = std::move(pid).take_error();
    error.details["argv0"] = spec.argv.front();
    return error;
  }
  return pid;
}

// A descriptor that becomes readable when `pid` exits, or -1. Through syscall(2) because
// glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
int open_exit_signal(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

void fill_status(SubprocessResult& result, int status) {
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
}

// SIGKILL to `target` (the program's pid, or minus it for its whole group), then the program
// is reaped.
void kill_and_reap(SubprocessResult& result, pid_t target) {
  ::kill(target, SIGKILL);
  int status = 0;
  pid_t killed = -1;
  do {
    killed = ::waitpid(result.pid, &status, 0);
  } while (killed < 0 && errno == EINTR);
  if (killed == result.pid) fill_status(result, status);
}

}  // namespace

std::string SubprocessResult::describe() const {
  if (stopped) {
    return pid < 0 ? "stopped before it started"
                   : "stopped after " + std::to_string(duration.count()) +
                         " ms; it was killed, what it started was left running";
  }
  if (timed_out) {
    return "killed (with its process group) at the " + std::to_string(duration.count()) +
           " ms deadline";
  }
  if (exit_status) return "exit status " + std::to_string(*exit_status);
  if (signal) return "killed by signal " + std::to_string(*signal);
  return "ended with an unknown status";
}

Result<SubprocessResult> run_subprocess(const SubprocessSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) {
    return make_error(ErrorCode::kInvalidArgs, "no program to run");
  }
  if (spec.stop.stop_requested()) {
    SubprocessResult result;
    result.stopped = true;
    return result;
  }
  auto out = CapturedStream::open(spec.capture, spec.output_cap);
  if (!out) return std::move(out).take_error();
  auto err = CapturedStream::open(spec.capture, spec.output_cap);
  if (!err) return std::move(err).take_error();

  const auto started = SteadyClock::now();
  const auto deadline = started + spec.timeout;
  auto spawned = spawn(spec, *out, *err);
  if (!spawned) return std::move(spawned).take_error();
  SubprocessResult result;
  result.pid = *spawned;
  out->release_child_end();
  err->release_child_end();
  const UniqueFd exit_signal(open_exit_signal(result.pid));

  CapturedStream* streams[] = {&*out, &*err};
  while (true) {
    int status = 0;
    const pid_t reaped = ::waitpid(result.pid, &status, WNOHANG);
    if (reaped == result.pid) {
      fill_status(result, status);
      break;
    }
    if (reaped < 0 && errno != EINTR) break;  // reaped elsewhere: the status is unknown
    if (spec.stop.stop_requested()) {
      kill_and_reap(result, result.pid);
      result.stopped = true;
      break;
    }
    const auto now = SteadyClock::now();
    if (now >= deadline) {
      kill_and_reap(result, -result.pid);
      result.timed_out = true;
      break;
    }
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    if (!exit_signal.valid() || spec.stop.stop_possible()) {
      wait = std::min(wait, kExitPollInterval);
    }
    wait_for_descriptors({out->poll_fd(), err->poll_fd(), exit_signal.valid() ? exit_signal.get() : -1}, {}, wait);
    for (CapturedStream* stream : streams) stream->drain();
  }
  result.duration =
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - started);
  for (CapturedStream* stream : streams) stream->finish();
  result.out = out->take_text();
  result.out_truncated = out->truncated();
  result.err = err->take_text();
  result.err_truncated = err->truncated();
  return result;
}

}  // namespace companyos::launch
