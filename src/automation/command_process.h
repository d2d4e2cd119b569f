// Runs one command step (docs/automations.md): an argument vector, never a shell, in its own process
// group, stdin from /dev/null, an absolute cwd, the daemon's environment plus the step's
// entries, stdout and stderr captured together up to a cap. At the deadline, or when the
// caller's stop token fires, the group gets SIGTERM, then SIGKILL after a grace period.
// Nothing the command started in its group outlives the step: when the command exits, what
// is left of its group is killed too, and the command itself is always reaped.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "automation/definition.h"
#include "automation/step_processes.h"
#include "companyos/result.h"
#include "core/clock.h"
#include "store/output_cap.h"

namespace companyos::automation {

inline constexpr std::chrono::milliseconds kDefaultKillGrace{2000};

struct CommandSpec {
  std::string executable;                  // an absolute path, or a bare name looked up in PATH
  std::vector<std::string> arguments;      // after the program; it gets `executable` as argv[0]
  std::string cwd;                         // absolute
  std::map<std::string, std::string> env;  // set on top of the daemon's environment
  std::chrono::milliseconds timeout{std::chrono::seconds(kDefaultCommandTimeoutSeconds)};
  std::chrono::milliseconds kill_grace = kDefaultKillGrace;  // between SIGTERM and SIGKILL
  std::size_t output_cap = store::kStepOutputCap;
};

enum class CommandEnd {
  kExited,     // exited on its own: exit_status is set
  kSignalled,  // a signal it did not get from us ended it: signal is set
  kTimedOut,   // the deadline passed and the group was killed
  kStopped,    // the stop token fired (before the start, or while it ran) and the group was killed
};
std::string_view to_string(CommandEnd end);

struct CommandResult {
  CommandEnd end = CommandEnd::kExited;
  // The command's pid and process group id, or its keeper's when it ran under one (for logs);
  // -1 if never started.
  pid_t pid = -1;
  std::optional<int> exit_status;
  std::optional<int> signal;
  std::string output;  // stdout and stderr interleaved as written, at most output_cap bytes
  std::uint64_t output_bytes = 0;  // every byte written, kept or not
  bool output_truncated = false;
  std::chrono::milliseconds duration{0};  // on the injected clock, from start to reaping

  bool succeeded() const { return end == CommandEnd::kExited && exit_status == 0; }
  // "exit status 3", "killed by signal 11", "timed out after 5000 ms; its process group was
  // killed", … — never the output.
  std::string describe() const;
};

// A definition's command, with the output cap the runner has left for this step.
CommandSpec command_spec(const CommandLine& line, std::size_t output_cap = store::kStepOutputCap);

// Errors only when nothing was started: INVALID_ARGS (no executable, a NUL in an argument, a
// relative or non-directory cwd, a bad env entry, a timeout ≤ 0), NOT_FOUND (no such program,
// no such cwd), PERM_DENIED (not executable, cwd not enterable), INTERNAL (pipes, spawn).
// Blocks until the command has ended and been reaped. The deadline, the grace and the duration
// are read from `clock`, which must move on (SystemClock outside tests).
// With `groups`, the command is recorded for `run_id` from before it starts until it is
// reaped (step_processes.h), and runs under the step keeper (step_keeper.h), so nothing it
// started outlives the step, in its group or not; one that cannot be recorded, or without a
// keeper, is not started (INTERNAL). A program the keeper cannot start ends with exit status
// 127 and the reason in the output.
Result<CommandResult> run_command(const CommandSpec& spec, const Clock& clock,
                                  std::stop_token stop = {}, StepProcessRecord* groups = nullptr,
                                  std::int64_t run_id = 0);

}  // namespace companyos::automation
