// The real StepExecutor: each step type on the desktop, with the same refusal rules as the
// interactive methods.
//  - click / set_value: the a11y action engine in strict mode, target = the step's selector
//    (app, role, name, id, window title). Stale, ambiguous, missing window/element → blocked.
//    set_value reads the previous value first; undo sets it back (strict again).
//  - open_link / open_file: launch::run_launch_step (desktop entry + gio launch + in front);
//    a refused launch → blocked. Undo closes the window the launch brought forward.
//  - focus: the app's one mapped X11 client window (WM_CLASS names it; none or several →
//    blocked) is activated and confirmed active; through the agent-desktop program instead
//    when the setting names one.
//  - press: XTest chord into the app's one window, only with physical_input on; session
//    chords are refused (automations have no --force); the window must be active first.
//  - command: automation::run_command (own process group, killed at timeout or stop).
//  - wait: window appears/closes and text appears through a11y::wait_for; element waits poll
//    the selector live.
//  - pi: pi::run_session (pi's RPC mode under the step keeper; its questions go to the
//    person through StepContext::questions); pi not on PATH → blocked.
//  - check: re-read until it holds or its timeoutSeconds pass — front (the X11 active
//    window's WM_CLASS names the app), element (live read of the selector: state, value or
//    text), file (equals / contains / sha256 of the content), command (exit 0).
// Each step returns soon after the stop token fires (a11y calls end at their own short
// deadline; waits at their next look; commands get their group killed; a launch stops
// waiting for the app's window and leaves the app running). X11 connections are opened per
// step (Xlib connections are single-threaded).
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "a11y/action_engine.h"
#include "a11y/observer.h"
#include "automation/step_processes.h"
#include "automation/step_executor.h"
#include "core/clock.h"
#include "launch/launch_step.h"

namespace companyos::automation {

struct DesktopStepOptions {
  // Held from activating a window to the last key event of a press, so two XTest users never
  // interleave; the daemon passes its own (desktop::physical_input_mutex()). Null: a private one.
  std::mutex* physical_input_lock = nullptr;
  std::chrono::milliseconds action_timeout{10'000};   // one a11y action, resolve to read-back
  std::chrono::milliseconds poll_interval{200};       // between re-reads of checks and waits
  std::chrono::milliseconds stop_slice{1'000};        // longest a11y call between stop checks
  launch::LaunchStepOptions launch;                   // injectable gio, index, platform
  // Where command steps are recorded while they run (step_processes.h); null: not recorded.
  StepProcessRecord* step_processes = nullptr;
  // The daemon's store: a file check never opens its files (store::is_store_file).
  std::string store_path;
};

class DesktopStepExecutor final : public StepExecutor {
 public:
  // `clock` times commands (run_command); desktop deadlines use the steady clock, since the
  // bus calls they bound do.
  DesktopStepExecutor(a11y::Observer& observer, a11y::ActionEngine& actions, const Clock& clock,
                      DesktopStepOptions options = {});

  StepOutcome execute(const Step& step, const StepContext& context) override;
  StepOutcome dry_run(const Step& step, const StepContext& context) override;
  Status undo(const Step& step, const store::UndoRecord& record,
              const StepContext& context) override;

 private:
  StepOutcome run_command_step(const CommandStep& step, const StepContext& context);
  StepOutcome open(const std::string& app, const launch::Target& target, const StepContext& context);
  StepOutcome focus(const FocusStep& step, const StepContext& context);
  StepOutcome press(const PressStep& step, const StepContext& context);
  StepOutcome act(a11y::ActionKind kind, const std::string& app, const std::optional<std::string>& window,
                  const ElementSelector& target, const std::string& argument);
  StepOutcome set_value(const SetValueStep& step);
  StepOutcome wait(const WaitStep& step, const StepContext& context);
  StepOutcome check(const CheckStep& step, const StepContext& context);
  StepOutcome run_pi_step(const PiStep& step, const StepContext& context);
  Status close_launched_window(const store::UndoRecord& record);

  a11y::Observer& observer_;
  a11y::ActionEngine& actions_;
  const Clock& clock_;
  DesktopStepOptions options_;
  std::mutex own_physical_input_lock_;
};

}  // namespace companyos::automation
