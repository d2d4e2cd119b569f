// The seam between the runner and the desktop: runs one step of a definition, dry-runs it
// (level 1), or runs one recorded inverse (undo). The runner owns order, levels, approvals,
// statuses and the store; an executor only acts and says what it saw. The real one is
// DesktopStepExecutor (desktop_steps.h); unit tests use a fake.
#pragma once

#include <cstddef>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "automation/definition.h"
#include "automation/question.h"
#include "companyos/errors.h"
#include "companyos/result.h"
#include "core/delivery.h"
#include "store/output_cap.h"
#include "store/run_store.h"

namespace companyos::automation {

enum class StepStatus {
  kPassed,   // it ran and did what it should; for a dry run: it would run
  kFailed,   // it ran and did not succeed (a command's exit status, a check that did not hold)
  kBlocked,  // refused before anything reached the app: launch refused, target stale or
             // ambiguous, window not found, policy; nothing was delivered
  kStopped,  // the stop token fired; a command's process group was killed
};

// "passed", "failed", "blocked", "stopped".
std::string_view to_string(StepStatus status);

struct StepContext {
  std::string path;  // "actions[2]", for messages
  std::int64_t run_id = 0;  // the run the step belongs to (0 in tests that have none)
  // Bytes of output this step may keep: 64 KiB, or less when the run's 128 KiB are nearly
  // used. The runner cuts anything longer.
  std::size_t output_cap = store::kStepOutputCap;
  // Fires on `automation stop`, stop-all and shutdown. An executor must return soon after
  // (kStopped), killing what it started.
  std::stop_token stop;
  bool physical_input = false;     // the "physical_input" setting when the run started
  std::string agent_desktop_path;  // the "agent_desktop_path" setting; "" = built-in only
  // Where a step's questions to the person go (pi steps); null: none can be asked.
  PersonQuestions* questions = nullptr;
};

struct StepOutcome {
  StepStatus status = StepStatus::kPassed;
  // What reached the app, for steps that act (nullopt for waits, checks and dry runs).
  std::optional<Delivery> delivery;
  std::optional<ErrorCode> error_code;  // set for failed and blocked steps
  // One line a person can act on: why it failed or was blocked, or what a dry run found.
  // Never a value, typed text or command output.
  std::string reason;
  std::string output;  // a command's stdout+stderr (commands and command checks only)
  bool output_truncated = false;
  std::optional<bool> check_passed;  // check steps: passed or failed, counted by the gate
  // How `run undo` takes the step back; only for a passed step with an effect. The runner
  // sets seq. The previous value of a set_value lives here and nowhere else.
  std::optional<store::UndoRecord> undo;
};

// An outcome built from an error: blocked for refusals (nothing delivered), failed otherwise.
// Used by executors to map a11y/launch/x11 errors the same way everywhere.
StepOutcome outcome_from_error(const Error& error);
// Refusals before anything reached the app: STALE_REF, AMBIGUOUS_TARGET, WINDOW_NOT_FOUND,
// ELEMENT_NOT_FOUND, APP_NOT_FOUND, POLICY_DENIED, PLATFORM_NOT_SUPPORTED, NOT_FOUND,
// PERM_DENIED, INVALID_ARGS, ACTION_NOT_SUPPORTED, BUS_UNAVAILABLE — unless details.delivery
// says something was delivered.
bool is_refusal(const Error& error);

class StepExecutor {
 public:
  virtual ~StepExecutor() = default;

  // Runs the step for real. Never throws; thread-safe (runs of several automations call it
  // at once from their own threads).
  virtual StepOutcome execute(const Step& step, const StepContext& context) = 0;

  // Level 1: resolves and policy-checks the step without any effect (desktop entry found
  // and able to take the target, target unique, file exists, executable found). kPassed
  // means "would run" (reason says what was found); kBlocked says why it could not.
  virtual StepOutcome dry_run(const Step& step, const StepContext& context) = 0;

  // Runs one recorded inverse of `step` (the step as the run's revision defines it):
  // restores the previous value, runs the declared undo command, or closes the launched
  // window (already closed counts as done). An error says why it could not.
  virtual Status undo(const Step& step, const store::UndoRecord& record,
                      const StepContext& context) = 0;
};

}  // namespace companyos::automation
