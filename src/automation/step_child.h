// What command steps and pi steps share about the program a step starts: its working
// directory checked, its process recorded while it runs (step_processes.h), started in a
// process group of its own under the step keeper (step_keeper.h), and ended with its group:
// SIGTERM, a grace, the keeper told to end everything, SIGKILL, reaped.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "automation/step_processes.h"
#include "companyos/result.h"
#include "core/clock.h"
#include "core/process_spawn.h"
#include "core/unique_fd.h"

namespace companyos::automation {

// INVALID_ARGS for a cwd that is not absolute or not a directory, NOT_FOUND when it does not
// exist, PERM_DENIED when it cannot be reached.
Status check_step_cwd(const std::string& cwd);

// The step's record from before its program starts until this ends, when whatever carries
// its token is killed (StepProcessRecord::end). Without a record (tests), nothing.
class RecordedStep {
 public:
  // INTERNAL when there is a record but no keeper to run under, or the record cannot be written.
  static Result<RecordedStep> open(StepProcessRecord* groups, std::int64_t run_id);
  RecordedStep(RecordedStep&& other) noexcept;
  RecordedStep& operator=(RecordedStep&&) = delete;
  ~RecordedStep();

  // The token to put in the program's environment; nullopt without a record.
  const std::optional<std::string>& token() const { return token_; }
  // The keeper to start the program under; empty without a record.
  std::filesystem::path keeper() const;

 private:
  RecordedStep(StepProcessRecord* groups, std::optional<std::string> token) : groups_(groups), token_(std::move(token)) {}
  StepProcessRecord* groups_ = nullptr;
  std::optional<std::string> token_;
};

struct StepChildStreams {
  int stdin_fd = kNullDevice;
  int stdout_fd = kNullDevice;
  int stderr_fd = kNullDevice;
};

// Starts `program` (absolute) as argv `argv0 arguments…` in `cwd`, in a process group of its
// own; under `keeper` when one is given. Errors as run_command documents them.
Result<pid_t> spawn_step_child(const std::string& program, const std::string& argv0,
                               const std::vector<std::string>& arguments,
                               const std::vector<std::string>& environment, const std::string& cwd,
                               const StepChildStreams& streams, const std::filesystem::path& keeper);

// One started child (or its keeper), watched until it is reaped.
class StepChild {
 public:
  // Waits at most the given time for anything the caller watches (the child's exit included,
  // through exit_fd()), handling what came; called while the child is being ended.
  using Wait = std::function<void(std::chrono::steady_clock::duration)>;

  StepChild(pid_t pid, bool kept, const Clock& clock);
  StepChild(const StepChild&) = delete;
  StepChild& operator=(const StepChild&) = delete;

  pid_t pid() const { return pid_; }
  // Readable once the child has exited (a pidfd); -1 where the kernel has none, and then the
  // caller polls at most kExitPollInterval apart.
  int exit_fd() const { return exit_signal_.get(); }
  static constexpr std::chrono::milliseconds kExitPollInterval{10};

  // Whether it has exited, leaving it unreaped: while it is a zombie its pid, and so its group
  // id, cannot be reused, which keeps signals to its group aimed right.
  bool has_exited();
  // SIGTERM to the group (a keeper passes it on to its command's), then up to `grace` for the
  // child to exit.
  void terminate(std::chrono::milliseconds grace, const Wait& wait);
  // A keeper is told to end everything itself (killed, it could not); then SIGKILL to what is
  // left of the group, and the child is reaped: its exit status or signal.
  void finish(const Wait& wait);

  std::optional<int> exit_status() const { return exit_status_; }
  std::optional<int> signal() const { return signal_; }

 private:
  pid_t pid_;
  bool kept_;
  const Clock& clock_;
  UniqueFd exit_signal_;
  bool reaped_elsewhere_ = false;
  std::optional<int> exit_status_;
  std::optional<int> signal_;
};

}  // namespace companyos::automation
