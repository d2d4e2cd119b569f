// Runs one pi step: `pi --mode rpc --no-session`, found on PATH when the step runs, started
// in the step's cwd under the step keeper (step_child.h), with pipes to its stdin, stdout and
// stderr. The prompt goes in as one RPC line (rpc.h); pi's questions go to the person
// (question.h) and their answers back to pi; pi's final assistant output is the result.
//
// At the step's deadline, or when the stop token fires, pi is asked to abort, given
// abort_grace to end its prompt, and then its group is ended as a command's is (SIGTERM,
// kill_grace, the keeper, SIGKILL). After agent_end its stdin is closed and it is given
// kill_grace to exit before the same. A question is withdrawn when pi's own limit for it
// passes (pi goes on with its default), when pi ends, and at the deadline.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "automation/question.h"
#include "automation/step_processes.h"
#include "companyos/result.h"
#include "core/clock.h"
#include "store/output_cap.h"

namespace companyos::automation::pi {

inline constexpr std::string_view kProgram = "pi";
// What pi wrote to stderr that is kept for a step that failed.
inline constexpr std::size_t kStderrCap = 16 * 1024;

struct SessionSpec {
  std::string prompt;
  std::string cwd;  // absolute
  std::chrono::milliseconds timeout{std::chrono::seconds(900)};
  std::chrono::milliseconds abort_grace{5000};  // after the abort line, before the group is ended
  std::chrono::milliseconds kill_grace{2000};   // between SIGTERM and SIGKILL
  std::size_t output_cap = store::kStepOutputCap;  // for the result
};

enum class SessionEnd {
  kAnswered,   // agent_end with an assistant answer
  kFailed,     // pi refused the prompt, or its answer stopped on an error
  kExited,     // pi exited (or closed its output) before agent_end
  kTimedOut,   // the deadline passed (pi was asked to abort, then ended)
  kStopped,    // the stop token fired
  kProtocol,   // pi wrote what is not its RPC protocol (a malformed or overlong line)
};
std::string_view to_string(SessionEnd end);

struct SessionResult {
  SessionEnd end = SessionEnd::kAnswered;
  std::string result;  // pi's final assistant text, at most output_cap bytes
  bool result_truncated = false;
  std::string error;   // pi's own words for a failure, or what was wrong with a line
  std::string stderr_text;  // what pi wrote to stderr, at most kStderrCap bytes
  std::optional<int> exit_status;
  std::optional<int> signal;
  int questions = 0;  // questions pi asked
  int answers = 0;    // answers the person gave
  std::chrono::milliseconds duration{0};

  // One line for the step's reason: "pi answered", "pi exited with status 3 before it
  // answered", "timed out after 900000 ms waiting for pi's answer", … never the result.
  std::string describe() const;
};

// Errors only when nothing was started: NOT_FOUND (no pi on PATH, no such cwd), PERM_DENIED,
// INVALID_ARGS (a relative cwd, an empty prompt), INTERNAL (pipes, the record, no keeper).
// `questions`: where pi's questions go; null cancels each one at once (pi goes on).
Result<SessionResult> run_session(const SessionSpec& spec, const Clock& clock, std::stop_token stop,
                                  PersonQuestions* questions, StepProcessRecord* groups = nullptr,
                                  std::int64_t run_id = 0);

// The pi the step would start: the first executable "pi" on the daemon's PATH; NOT_FOUND
// with what to do when there is none.
Result<std::string> find_pi();

}  // namespace companyos::automation::pi
