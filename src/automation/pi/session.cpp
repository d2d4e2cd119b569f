#include "automation/pi/session.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <deque>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "automation/child_environment.h"
#include "automation/executable_lookup.h"
#include "automation/output_capture.h"
#include "automation/pi/rpc.h"
#include "automation/step_child.h"
#include "core/pipe_reading.h"
#include "core/unique_fd.h"

namespace companyos::automation::pi {
namespace {

using std::chrono::milliseconds;
using SteadyTime = std::chrono::steady_clock::time_point;

constexpr std::string_view kPromptId = "companyos-step";

Error system_error(const std::string& what, int error_number) {
  return make_error(ErrorCode::kInternal, what + ": " + std::strerror(error_number), {{"errno", error_number}});
}

// A pipe whose ends are both close-on-exec, one of them non-blocking: the child's end is
// handed over by spawn_process as 0, 1 or 2.
struct Pipe {
  UniqueFd ours;
  UniqueFd theirs;
};

Result<Pipe> open_pipe(bool we_read) {
  std::array<int, 2> ends{};
  if (::pipe2(ends.data(), O_CLOEXEC) != 0) return system_error("pipe2", errno);
  Pipe pipe;
  pipe.ours.reset(we_read ? ends[0] : ends[1]);
  pipe.theirs.reset(we_read ? ends[1] : ends[0]);
  ::fcntl(pipe.ours.get(), F_SETFL, ::fcntl(pipe.ours.get(), F_GETFL) | O_NONBLOCK);
  return pipe;
}

// Writing to pi after it closed its stdin raises SIGPIPE on the writing thread: blocked on
// this thread while the session lasts, and any left pending taken before it is unblocked, so
// the daemon never depends on its process-wide disposition.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &before_);
  }
  ~SigpipeBlocked() {
    if (sigismember(&before_, SIGPIPE) == 1) return;
    const timespec now{0, 0};
    while (::sigtimedwait(&pipe_, nullptr, &now) == SIGPIPE) {
    }
    ::pthread_sigmask(SIG_SETMASK, &before_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_{};
  sigset_t before_{};
};

// Writes to the descriptor from the caller's thread (a stop, a person's answer).
struct Wake {
  int fd;
  void operator()() const noexcept {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(fd, &one, sizeof one);
  }
};

void clear_wake(int fd) {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t got = ::read(fd, &count, sizeof count);
}

// Why the session ends, before pi has been ended.
struct Ending {
  SessionEnd end = SessionEnd::kAnswered;
  std::string error;
};

class Session {
 public:
  Session(const SessionSpec& spec, const Clock& clock, std::stop_token stop, PersonQuestions* questions,
          StepChild& child, Pipe& input, Pipe& output, Pipe& errors)
      : spec_(spec),
        clock_(clock),
        stop_(std::move(stop)),
        questions_(questions),
        child_(child),
        input_(std::move(input.ours)),
        output_(std::move(output.ours)),
        errors_(std::move(errors.ours)),
        stderr_(kStderrCap),
        wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
        on_stop_(stop_, Wake{wake_.get()}) {}

  SessionResult run(SteadyTime started) {
    const SteadyTime deadline = started + spec_.timeout;
    send(prompt_line(kPromptId, spec_.prompt));
    Ending ending = converse(deadline);
    if (asked_) {
      questions_->withdraw();
      asked_.reset();
    }
    end_pi(ending);
    result_.end = ending.end;
    if (result_.error.empty()) result_.error = ending.error;
    result_.exit_status = child_.exit_status();
    result_.signal = child_.signal();
    result_.stderr_text = stderr_.text();
    result_.duration = std::chrono::duration_cast<milliseconds>(clock_.steady() - started);
    return std::move(result_);
  }

 private:
  // Until pi answers, fails, exits, breaks its protocol, or the deadline or a stop comes.
  Ending converse(SteadyTime deadline) {
    for (;;) {
      if (ending_) return *ending_;
      if (stop_.stop_requested()) return {SessionEnd::kStopped, ""};
      const SteadyTime now = clock_.steady();
      if (now >= deadline) return {SessionEnd::kTimedOut, ""};
      if (!output_.valid() || child_.has_exited()) {
        read_output();
        if (ending_) return *ending_;
        return {SessionEnd::kExited, ""};
      }
      SteadyTime until = deadline;
      if (question_ends_) until = std::min(until, *question_ends_);
      if (question_ends_ && now >= *question_ends_) {
        // pi's own limit for the question passed: it went on with its default.
        questions_->withdraw();
        asked_.reset();
        question_ends_.reset();
        ask_next(deadline);
        continue;
      }
      wait(until - now, true);
      take_answer(deadline);
      read_output(deadline);
    }
  }

  // pi is done, or must be: asked to abort when it is still at work, its stdin closed, then
  // ended as a command is.
  void end_pi(const Ending& ending) {
    const auto waiting = [this](std::chrono::steady_clock::duration limit) {
      wait(limit, false);
      read_output();
    };
    if (ending.end == SessionEnd::kTimedOut || ending.end == SessionEnd::kStopped) {
      send(abort_line());
      const SteadyTime give_up = clock_.steady() + spec_.abort_grace;
      aborting_ = true;
      while (!agent_ended_ && output_.valid() && !child_.has_exited() && clock_.steady() < give_up) {
        waiting(give_up - clock_.steady());
      }
    }
    input_.reset();
    pending_input_.clear();
    const SteadyTime give_up = clock_.steady() + spec_.kill_grace;
    while (!child_.has_exited() && clock_.steady() < give_up) waiting(give_up - clock_.steady());
    if (!child_.has_exited()) child_.terminate(spec_.kill_grace, waiting);
    child_.finish(waiting);
    drain_errors();
  }

  void send(const std::string& line) {
    if (!input_.valid()) return;
    pending_input_ += line;
    flush_input();
  }

  void flush_input() {
    while (input_.valid() && !pending_input_.empty()) {
      const ssize_t written = ::write(input_.get(), pending_input_.data(), pending_input_.size());
      if (written > 0) {
        pending_input_.erase(0, static_cast<std::size_t>(written));
      } else if (written < 0 && errno == EINTR) {
        continue;
      } else if (written < 0 && errno == EAGAIN) {
        return;
      } else {
        input_.reset();  // EPIPE: pi closed its stdin; its exit is seen next
        pending_input_.clear();
      }
    }
  }

  // At most `limit` for pi's output, its stderr, its stdin taking more, its exit, or (when
  // `watch_wake`) a stop or an answer.
  void wait(std::chrono::steady_clock::duration limit, bool watch_wake) {
    auto timeout = std::chrono::ceil<milliseconds>(limit);
    if (child_.exit_fd() < 0) timeout = std::min(timeout, StepChild::kExitPollInterval);
    wait_for_descriptors({output_.valid() ? output_.get() : -1, errors_.valid() ? errors_.get() : -1,
                          child_.exit_fd(), watch_wake && wake_.valid() ? wake_.get() : -1},
                         {input_.valid() && !pending_input_.empty() ? input_.get() : -1}, timeout);
    if (wake_.valid()) clear_wake(wake_.get());
    flush_input();
    drain_errors();
  }

  void drain_errors() {
    read_available(errors_, [this](std::string_view bytes) {
      stderr_.append(bytes);
      return true;
    });
  }

  void read_output(std::optional<SteadyTime> deadline = std::nullopt) {
    const PipeRead read = read_available(output_, [&](std::string_view bytes) {
      framer_.append(bytes);
      while (auto line = framer_.next_line()) handle(parse_line(*line), deadline);
      return !framer_.overlong();
    });
    if (read == PipeRead::kHeld) {
      set_ending(SessionEnd::kProtocol, "pi wrote a line longer than 8 MiB");
      output_.reset();
    }
  }

  void set_ending(SessionEnd end, std::string error) {
    if (!ending_) ending_ = Ending{end, std::move(error)};
  }

  void handle(const Event& event, std::optional<SteadyTime> deadline) {
    if (const auto* end = std::get_if<AgentEnd>(&event)) {
      agent_ended_ = true;
      store::CappedOutput capped = store::cap_output(end->result, spec_.output_cap);
      result_.result = std::move(capped.text);
      result_.result_truncated = capped.truncated;
      if (aborting_) return;
      if (end->failed) {
        set_ending(SessionEnd::kFailed, end->error);
      } else {
        set_ending(SessionEnd::kAnswered, "");
      }
    } else if (const auto* response = std::get_if<Response>(&event)) {
      if (response->command == "prompt" && !response->success) {
        set_ending(SessionEnd::kFailed, response->error.empty() ? "pi refused the prompt" : response->error);
      }
    } else if (const auto* question = std::get_if<Question>(&event)) {
      ++result_.questions;
      if (questions_ == nullptr || !deadline || aborting_) {
        send(answer_line(*question, Answer{.cancelled = true}));
        return;
      }
      waiting_.push_back(*question);
      if (!asked_) ask_next(*deadline);
    }
    // Malformed lines and everything else pi streams are not the step's business: an
    // extension's stray print must not end a prompt that is going well.
  }

  void ask_next(SteadyTime deadline) {
    while (!asked_ && !waiting_.empty()) {
      Question next = std::move(waiting_.front());
      waiting_.pop_front();
      const SteadyTime now = clock_.steady();
      SteadyTime ends = deadline;
      if (next.timeout) ends = std::min(ends, now + *next.timeout);
      const auto left = std::chrono::ceil<std::chrono::seconds>(ends - now);
      auto asked = questions_->ask(next, clock_.unix_seconds() + left.count(), Wake{wake_.get()});
      if (!asked) {
        send(answer_line(next, Answer{.cancelled = true}));
        continue;
      }
      question_ends_ = next.timeout ? std::optional<SteadyTime>(ends) : std::nullopt;
      asked_ = std::move(next);
    }
  }

  void take_answer(SteadyTime deadline) {
    if (!asked_) return;
    auto answer = questions_->take_answer();
    if (!answer) return;
    ++result_.answers;
    send(answer_line(*asked_, *answer));
    asked_.reset();
    question_ends_.reset();
    ask_next(deadline);
  }

  const SessionSpec& spec_;
  const Clock& clock_;
  std::stop_token stop_;
  PersonQuestions* questions_;
  StepChild& child_;
  UniqueFd input_;
  UniqueFd output_;
  UniqueFd errors_;
  std::string pending_input_;
  LineFramer framer_;
  OutputCapture stderr_;
  SessionResult result_;
  std::optional<Ending> ending_;
  bool agent_ended_ = false;
  bool aborting_ = false;
  std::optional<Question> asked_;               // put to the person, not answered yet
  std::optional<SteadyTime> question_ends_;     // pi's own limit for it
  std::deque<Question> waiting_;                // asked by pi while another was open
  UniqueFd wake_;
  // Declared last: unregistered (waiting out a running callback) before wake_ is closed.
  std::stop_callback<Wake> on_stop_;
};

std::string seconds_text(milliseconds duration) {
  return std::to_string((duration.count() + 500) / 1000) + " s";
}

}  // namespace

std::string_view to_string(SessionEnd end) {
  switch (end) {
    case SessionEnd::kAnswered:
      return "answered";
    case SessionEnd::kFailed:
      return "failed";
    case SessionEnd::kExited:
      return "exited";
    case SessionEnd::kTimedOut:
      return "timed_out";
    case SessionEnd::kStopped:
      return "stopped";
    case SessionEnd::kProtocol:
      break;
  }
  return "protocol";
}

std::string SessionResult::describe() const {
  std::string asked;
  if (questions > 0) {
    asked = "; it asked " + std::to_string(questions) + (questions == 1 ? " question, " : " questions, ") +
            std::to_string(answers) + " answered";
  }
  switch (end) {
    case SessionEnd::kAnswered:
      return "pi answered" + asked;
    case SessionEnd::kFailed:
      return "pi did not answer: " + error + asked;
    case SessionEnd::kExited: {
      std::string how = exit_status ? "pi exited with status " + std::to_string(*exit_status)
                        : signal     ? "pi was killed by signal " + std::to_string(*signal)
                                     : "pi closed its output";
      return how + " before it answered" + asked;
    }
    case SessionEnd::kTimedOut:
      return "timed out after " + seconds_text(duration) + " waiting for pi's answer; pi was asked to abort and ended" +
             asked;
    case SessionEnd::kStopped:
      return "stopped after " + seconds_text(duration) + "; pi was asked to abort and ended" + asked;
    case SessionEnd::kProtocol:
      break;
  }
  return error + "; pi was ended" + asked;
}

namespace {

Result<std::string> pi_on_path(std::span<const std::string> environment) {
  auto program = resolve_executable(kProgram, search_path_of(environment));
  if (!program && program.error().code == ErrorCode::kNotFound) {
    Error error = std::move(program).take_error();
    error.message = "pi is not on the daemon's PATH";
    error.details["program"] = std::string(kProgram);
    error.suggestion =
        "install pi (npm install -g @mariozechner/pi-coding-agent), configure its model, and make sure the "
        "daemon's PATH reaches it (systemctl --user import-environment PATH, then restart companyosd)";
    return error;
  }
  return program;
}

}  // namespace

Result<std::string> find_pi() { return pi_on_path(daemon_environment()); }

Result<SessionResult> run_session(const SessionSpec& spec, const Clock& clock, std::stop_token stop,
                                  PersonQuestions* questions, StepProcessRecord* groups, std::int64_t run_id) {
  if (spec.prompt.find_first_not_of(" \t\r\n") == std::string::npos) {
    return make_error(ErrorCode::kInvalidArgs, "the prompt is empty");
  }
  if (spec.timeout <= milliseconds::zero()) return make_error(ErrorCode::kInvalidArgs, "the timeout must be positive");
  if (Status checked = check_step_cwd(spec.cwd); !checked) return std::move(checked).take_error();
  auto recorded = RecordedStep::open(groups, run_id);
  if (!recorded) return std::move(recorded).take_error();
  std::map<std::string, std::string> env;
  if (recorded->token()) env[std::string(kStepTokenVariable)] = *recorded->token();
  auto environment = child_environment(daemon_environment(), env);
  if (!environment) return std::move(environment).take_error();
  auto program = pi_on_path(*environment);
  if (!program) return std::move(program).take_error();
  auto input = open_pipe(false);
  if (!input) return std::move(input).take_error();
  auto output = open_pipe(true);
  if (!output) return std::move(output).take_error();
  auto errors = open_pipe(true);
  if (!errors) return std::move(errors).take_error();

  if (stop.stop_requested()) {
    SessionResult result;
    result.end = SessionEnd::kStopped;
    return result;
  }
  SigpipeBlocked no_sigpipe;
  const SteadyTime started = clock.steady();
  const std::filesystem::path keeper = recorded->keeper();
  auto spawned = spawn_step_child(*program, std::string(kProgram), {"--mode", "rpc", "--no-session"}, *environment,
                                  spec.cwd, {input->theirs.get(), output->theirs.get(), errors->theirs.get()}, keeper);
  if (!spawned) return std::move(spawned).take_error();
  input->theirs.reset();
  output->theirs.reset();
  errors->theirs.reset();
  StepChild child(*spawned, !keeper.empty(), clock);
  Session session(spec, clock, std::move(stop), questions, child, *input, *output, *errors);
  return session.run(started);
}

}  // namespace companyos::automation::pi
