#include "automation/desktop_steps.h"

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <thread>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "a11y/action_expectation.h"
#include "a11y/live_resolve.h"
#include "a11y/vocabulary.h"
#include "a11y/wait.h"
#include "desktop/window_resolver.h"
#include "automation/child_environment.h"
#include "automation/command_process.h"
#include "automation/element_probe.h"
#include "automation/executable_lookup.h"
#include "automation/file_check.h"
#include "automation/pi/session.h"
#include "automation/step_child.h"
#include "launch/agent_desktop_bridge.h"
#include "launch/bridge_arguments.h"
#include "store/database.h"
#include "launch/in_front.h"
#include "x11/activation.h"
#include "x11/key_chord.h"
#include "x11/keyboard.h"
#include "x11/session_chord.h"

namespace companyos::automation {
namespace {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

Deadline after(milliseconds duration) { return SteadyClock::now() + duration; }

// Sleeps for `duration` unless the stop token fires first; false when it fired.
bool pause(const std::stop_token& stop, milliseconds duration) {
  std::mutex mutex;
  std::condition_variable_any never;
  std::unique_lock lock(mutex);
  never.wait_for(lock, stop, duration, [] { return false; });
  return !stop.stop_requested();
}

StepOutcome passed(std::string reason, std::optional<Delivery> delivery = std::nullopt) {
  StepOutcome outcome;
  outcome.status = StepStatus::kPassed;
  outcome.reason = std::move(reason);
  outcome.delivery = delivery;
  return outcome;
}

StepOutcome failed(std::string reason, std::optional<ErrorCode> code = std::nullopt) {
  StepOutcome outcome;
  outcome.status = StepStatus::kFailed;
  outcome.reason = std::move(reason);
  outcome.error_code = code;
  return outcome;
}

StepOutcome blocked(const Error& error) {
  StepOutcome outcome = outcome_from_error(error);
  outcome.status = StepStatus::kBlocked;
  outcome.delivery = Delivery::kNotDelivered;
  return outcome;
}

StepOutcome stopped() {
  StepOutcome outcome;
  outcome.status = StepStatus::kStopped;
  outcome.reason = "stopped while the step ran";
  return outcome;
}

StepOutcome check_outcome(bool holds, std::string reason) {
  StepOutcome outcome = holds ? passed(std::move(reason)) : failed(std::move(reason));
  outcome.check_passed = holds;
  return outcome;
}

// What one look at a condition saw: it holds, it does not (yet), or it cannot be judged
// (a refusal: ambiguous target, password manager), which ends the step blocked.
struct Look {
  enum class Kind { kHolds, kNot, kRefused } kind = Kind::kNot;
  std::string reason;
  std::optional<Error> refusal;
};

Look holds(std::string reason) { return {Look::Kind::kHolds, std::move(reason), std::nullopt}; }
Look not_yet(std::string reason) { return {Look::Kind::kNot, std::move(reason), std::nullopt}; }
Look refused(Error error) {
  std::string reason = error.message;
  return {Look::Kind::kRefused, std::move(reason), std::move(error)};
}

// Looks until the condition holds, is refused, the timeout passes or the stop token fires.
// Each look is bounded by what is left of the timeout (and at least 1 s, so a look can end).
template <typename LookOnce>
StepOutcome poll(const StepContext& context, milliseconds timeout, milliseconds interval, bool is_check,
                 LookOnce look_once) {
  const auto deadline = SteadyClock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now());
    Look look = look_once(SteadyClock::now() + std::max(left, milliseconds(1000)));
    if (look.kind == Look::Kind::kRefused) return blocked(*look.refusal);
    if (look.kind == Look::Kind::kHolds) {
      return is_check ? check_outcome(true, look.reason) : passed(look.reason);
    }
    if (SteadyClock::now() >= deadline) {
      std::string reason = look.reason + " (after " + std::to_string(timeout.count() / 1000) + " s)";
      if (is_check) return check_outcome(false, reason);
      return failed(reason, ErrorCode::kTimeout);
    }
    if (!pause(context.stop, std::min(interval, std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now())))) {
      return stopped();
    }
  }
}

// One look at a selector's element for a check, judged as waits judge an element
// (a11y::judge_element). The app or window not there yet is the element's window gone —
// which a selector waits through; policy refuses; any other failure is a look that proves
// nothing yet.
Look judged_look(a11y::Predicate predicate, const std::optional<std::string>& value,
                 const Result<ElementProbe>& probe, const std::string& what) {
  using Presence = a11y::ElementSighting::Presence;
  a11y::ElementSighting seen;
  if (!probe) {
    const ErrorCode code = probe.error().code;
    if (code == ErrorCode::kPolicyDenied || code == ErrorCode::kAmbiguousTarget) return refused(probe.error());
    if (code != ErrorCode::kAppNotFound && code != ErrorCode::kWindowNotFound) {
      return not_yet(code == ErrorCode::kElementNotFound ? what + " is not there: " + probe.error().message
                                                          : probe.error().message);
    }
    seen.presence = Presence::kWindowGone;
  } else if (probe->matches == 0) {
    seen.presence = Presence::kNone;
  } else if (probe->matches > 1) {
    seen.presence = Presence::kSeveral;
    seen.matches = probe->matches;
  } else {
    seen.presence = Presence::kOne;
    seen.value = probe->node->value;
    seen.value_withheld = probe->node->value_withheld;
    seen.states = probe->node->states;
  }
  const a11y::ElementVerdict verdict = a11y::judge_element(predicate, value, seen, a11y::NamedBy::kSelector, what);
  if (verdict.kind == a11y::ElementVerdict::Kind::kRefused) return refused(*verdict.refusal);
  const bool now = verdict.kind == a11y::ElementVerdict::Kind::kHolds;
  const std::string named = value.value_or("");
  switch (seen.presence) {
    case Presence::kWindowGone:
      if (now) return holds(what + " is gone with its window");
      return not_yet(what + " is not there: " + probe.error().message);
    case Presence::kNone:
      return now ? holds(what + " is gone") : not_yet("no element matches " + what);
    case Presence::kSeveral:
    case Presence::kOne:
      break;
  }
  switch (predicate) {
    case a11y::Predicate::kGone:
      return not_yet(what + " is still there");
    case a11y::Predicate::kExists:
      return holds(what + " exists");
    case a11y::Predicate::kValue:
      return now ? holds(what + " has the value") : not_yet(what + " has another value");
    case a11y::Predicate::kState:
      return now ? holds(what + " is " + named) : not_yet(what + " is not " + named);
  }
  return not_yet("");
}

// What a wait step waits for, for its outcome's reason: "window_appears", …, or the element
// and its predicate ("push button \"OK\" in app editor: state checked").
std::string waited_for(const WaitCondition& condition) {
  return std::visit(
      [](const auto& wait) -> std::string {
        using T = std::decay_t<decltype(wait)>;
        if constexpr (std::is_same_v<T, WindowAppearsWait>) {
          return "window_appears";
        } else if constexpr (std::is_same_v<T, WindowClosedWait>) {
          return "window_closed";
        } else if constexpr (std::is_same_v<T, TextAppearsWait>) {
          return "text_appears";
        } else {
          std::string text = describe_target(wait.app, wait.target) + ": " + std::string(a11y::predicate_name(wait.predicate));
          if (wait.predicate == a11y::Predicate::kState) text += " " + wait.value.value_or("");
          return text;
        }
      },
      condition);
}

// The app's one X11 window, as focus-window would pick it; an app not on the
// accessibility bus by WM_CLASS.
Result<x11::WindowInfo> app_window(a11y::Observer& observer, const std::string& app,
                                   x11::Connection& connection, Deadline deadline) {
  auto resolved = desktop::resolve_window(observer, connection, deadline, a11y::WindowQuery{app, {}, {}},
                                          desktop::Fallback::kWmClass);
  if (!resolved) {
    Error error = std::move(resolved).take_error();
    // A focus or press step names only the app: a step cannot pick a window by id.
    if (error.code == ErrorCode::kAmbiguousTarget) error.suggestion = "close the other windows of the app";
    return error;
  }
  return std::move(resolved->client);
}

std::string window_json(const x11::WindowInfo& window) {
  nlohmann::json json = {{"xid", window.id}, {"wm_class", window.wm_class},
                         {"wm_instance", window.wm_instance}, {"title", window.title}};
  if (window.pid) json["pid"] = *window.pid;
  return json.dump();
}

Status check_press_allowed(const PressStep& step, const StepContext& context, x11::KeyChord& chord) {
  if (auto st = launch::check_key_chord(step.chord); !st) return st;
  auto parsed = x11::parse_key_chord(step.chord);
  if (!parsed) return std::move(parsed).take_error();
  if (x11::is_session_chord(*parsed)) {
    return make_error(ErrorCode::kPolicyDenied,
                      x11::to_string(*parsed) + " ends, locks or switches the session; automations never send it",
                      {{"reason", "session_chord"}, {"chord", x11::to_string(*parsed)}});
  }
  if (!context.agent_desktop_path.empty()) {
    if (auto st = launch::check_bridge_program(context.agent_desktop_path); !st) return st;
  }
  if (!context.physical_input) {
    return make_error(ErrorCode::kPolicyDenied, "a press needs physical input, which the settings do not allow",
                      {{"reason", "physical_input_disabled"}}, "companyos settings set physical_input true");
  }
  chord = *parsed;
  return ok_status();
}

Status check_command_runnable(const CommandLine& line) {
  auto environment = child_environment(daemon_environment(), line.env);
  if (!environment) return std::move(environment).take_error();
  auto program = resolve_executable(line.executable, search_path_of(*environment));
  if (!program) return std::move(program).take_error();
  std::error_code ec;
  if (!std::filesystem::is_directory(line.cwd, ec)) {
    return make_error(ErrorCode::kNotFound, "no directory at " + line.cwd, {{"cwd", line.cwd}});
  }
  return ok_status();
}

}  // namespace

DesktopStepExecutor::DesktopStepExecutor(a11y::Observer& observer, a11y::ActionEngine& actions,
                                         const Clock& clock, DesktopStepOptions options)
    : observer_(observer), actions_(actions), clock_(clock), options_(std::move(options)) {}

// ---- execute ----------------------------------------------------------------------------

StepOutcome DesktopStepExecutor::execute(const Step& step, const StepContext& context) {
  if (context.stop.stop_requested()) return stopped();
  return std::visit(
      [&](const auto& body) -> StepOutcome {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, CommandStep>) {
          return run_command_step(body, context);
        } else if constexpr (std::is_same_v<T, OpenLinkStep>) {
          return open(body.app, launch::Target{launch::TargetKind::kLink, body.url}, context);
        } else if constexpr (std::is_same_v<T, OpenFileStep>) {
          return open(body.app, launch::Target{launch::TargetKind::kFile, body.path}, context);
        } else if constexpr (std::is_same_v<T, FocusStep>) {
          return focus(body, context);
        } else if constexpr (std::is_same_v<T, PressStep>) {
          return press(body, context);
        } else if constexpr (std::is_same_v<T, ClickStep>) {
          return act(a11y::ActionKind::kClick, body.app, body.window, body.target, "");
        } else if constexpr (std::is_same_v<T, SetValueStep>) {
          return set_value(body);
        } else if constexpr (std::is_same_v<T, WaitStep>) {
          return wait(body, context);
        } else if constexpr (std::is_same_v<T, PiStep>) {
          return run_pi_step(body, context);
        } else {
          return check(body, context);
        }
      },
      step.body);
}

StepOutcome DesktopStepExecutor::run_pi_step(const PiStep& step, const StepContext& context) {
  pi::SessionSpec spec;
  spec.prompt = step.prompt;
  spec.cwd = step.cwd;
  spec.timeout = std::chrono::seconds(step.timeout_seconds);
  spec.output_cap = context.output_cap;
  auto result = pi::run_session(spec, clock_, context.stop, context.questions, options_.step_processes,
                                context.run_id);
  if (!result) return blocked(result.error());  // nothing was started
  StepOutcome outcome;
  switch (result->end) {
    case pi::SessionEnd::kAnswered:
      outcome = passed(result->describe());
      break;
    case pi::SessionEnd::kStopped:
      outcome = stopped();
      outcome.reason = result->describe();
      break;
    case pi::SessionEnd::kTimedOut:
      outcome = failed(result->describe(), ErrorCode::kTimeout);
      break;
    case pi::SessionEnd::kFailed:
    case pi::SessionEnd::kExited:
    case pi::SessionEnd::kProtocol:
      outcome = failed(result->describe());
      break;
  }
  // The prompt reached pi; what it did is pi's own account.
  outcome.delivery = Delivery::kDeliveredUnverified;
  if (result->end == pi::SessionEnd::kAnswered) {
    outcome.output = result->result;
    outcome.output_truncated = result->result_truncated;
  } else {
    // pi's partial answer, if any, then what it wrote to stderr: why it did not answer.
    outcome.output = result->result;
    if (!result->stderr_text.empty()) {
      if (!outcome.output.empty() && outcome.output.back() != '\n') outcome.output += '\n';
      outcome.output += "pi's stderr:\n" + result->stderr_text;
    }
    outcome.output_truncated = result->result_truncated;
  }
  return outcome;
}

StepOutcome DesktopStepExecutor::run_command_step(const CommandStep& step, const StepContext& context) {
  auto result = run_command(command_spec(step.command, context.output_cap), clock_, context.stop,
                            options_.step_processes, context.run_id);
  if (!result) return blocked(result.error());  // nothing was started
  if (result->end == CommandEnd::kStopped) {
    StepOutcome outcome = stopped();
    outcome.output = result->output;
    outcome.output_truncated = result->output_truncated;
    return outcome;
  }
  StepOutcome outcome = result->succeeded()
                            ? passed("exit status 0", Delivery::kDeliveredUnverified)
                            : failed(result->describe(), result->end == CommandEnd::kTimedOut
                                                             ? std::optional(ErrorCode::kTimeout)
                                                             : std::nullopt);
  outcome.delivery = Delivery::kDeliveredUnverified;
  outcome.output = result->output;
  outcome.output_truncated = result->output_truncated;
  if (result->succeeded() && step.undo) {
    outcome.undo = store::UndoRecord{0, store::UndoKind::kCommand, std::nullopt, to_json(*step.undo).dump(),
                                     std::nullopt};
  }
  return outcome;
}

StepOutcome DesktopStepExecutor::open(const std::string& app, const launch::Target& target,
                                      const StepContext& context) {
  // The windows open before the launch tell a new window from one the app reused: only a new
  // one is closed by undo.
  std::vector<x11::WindowId> before;
  if (auto connection = x11::Connection::open(); connection) before = launch::current_window_ids(*connection);
  auto report = launch::run_launch_step(app, target, options_.launch, context.stop);
  if (!report) return blocked(report.error());  // refused, nothing launched
  if (report->outcome == launch::LaunchOutcome::kStopped) {
    // Once gio ran, the app may be open: it was asked for, so it is left running, and the
    // step keeps no undo.
    StepOutcome outcome = stopped();
    const bool launched = report->launcher.pid > 0;
    outcome.delivery = launched ? Delivery::kDeliveredUnverified : Delivery::kNotDelivered;
    outcome.reason = !launched         ? "stopped before anything was launched"
                     : report->in_front ? report->in_front->message + "; the app was left running"
                                        : "stopped while gio launch ran; it was killed, the app it "
                                          "started was left running";
    return outcome;
  }
  if (auto st = launch::report_status(*report); !st) {
    StepOutcome outcome = outcome_from_error(st.error());
    outcome.status = StepStatus::kFailed;
    outcome.delivery = Delivery::kDeliveredUnverified;
    return outcome;
  }
  StepOutcome outcome = passed("opened with " + report->plan.entry.id + " and in front", Delivery::kDeliveredVerified);
  const auto& window = report->in_front->app_window;
  if (window && std::find(before.begin(), before.end(), window->id) == before.end()) {
    outcome.undo = store::UndoRecord{0, store::UndoKind::kCloseWindow, std::nullopt, std::nullopt,
                                     window_json(*window)};
  } else {
    outcome.reason += "; the app reused a window that was already open, so undo will not close it";
  }
  return outcome;
}

StepOutcome DesktopStepExecutor::focus(const FocusStep& step, const StepContext& context) {
  if (!context.agent_desktop_path.empty()) {
    auto report = launch::focus_via_bridge(launch::BridgeOptions{context.agent_desktop_path}, step.app);
    if (!report) return outcome_from_error(report.error());
    // Exit status 0 is all the program says; nothing was read back.
    return passed("focused through the agent-desktop program", Delivery::kDeliveredUnverified);
  }
  auto connection = x11::Connection::open();
  if (!connection) return blocked(connection.error());
  auto window = app_window(observer_, step.app, *connection, after(options_.action_timeout));
  if (!window) return blocked(window.error());
  if (auto st = x11::activate_window(*connection, window->id); !st) {
    StepOutcome outcome = outcome_from_error(st.error());
    if (outcome.status == StepStatus::kFailed) outcome.delivery = Delivery::kDeliveredUnverified;
    return outcome;
  }
  auto active = x11::active_window(*connection);
  const bool verified = active && *active && **active == window->id;
  return passed(verified ? "the app's window is active" : "activation asked; the active window was not confirmed",
                verified ? Delivery::kDeliveredVerified : Delivery::kDeliveredUnverified);
}

StepOutcome DesktopStepExecutor::press(const PressStep& step, const StepContext& context) {
  x11::KeyChord chord;
  if (auto st = check_press_allowed(step, context, chord); !st) return blocked(st.error());
  auto connection = x11::Connection::open();
  if (!connection) return blocked(connection.error());
  auto window = app_window(observer_, step.app, *connection, after(options_.action_timeout));
  if (!window) return blocked(window.error());
  std::lock_guard lock(options_.physical_input_lock != nullptr ? *options_.physical_input_lock
                                                               : own_physical_input_lock_);
  if (auto st = x11::activate_window(*connection, window->id); !st) return blocked(st.error());
  auto active = x11::active_window(*connection);
  if (!active || !*active || **active != window->id) {
    return blocked(make_error(ErrorCode::kPolicyDenied, "the app's window did not stay active; nothing was typed",
                              {{"reason", "not_active"}}));
  }
  if (auto st = x11::send_key_chord(*connection, chord); !st) {
    StepOutcome outcome = outcome_from_error(st.error());
    outcome.status = StepStatus::kFailed;
    outcome.delivery = Delivery::kDeliveredUnverified;
    return outcome;
  }
  return passed("sent " + x11::to_string(chord), Delivery::kDeliveredUnverified);
}

StepOutcome DesktopStepExecutor::act(a11y::ActionKind kind, const std::string& app,
                                     const std::optional<std::string>& window, const ElementSelector& target,
                                     const std::string& argument) {
  auto selector = to_selector(app, window, target);
  if (!selector) return blocked(selector.error());
  a11y::ActionRequest request;
  request.kind = kind;
  request.target = *selector;
  request.argument = argument;
  request.strict = true;
  auto reply = actions_.perform(request, after(options_.action_timeout));
  if (!reply) return outcome_from_error(reply.error());
  const bool verified = reply->delivery == Delivery::kDeliveredVerified;
  return passed(verified ? "done and read back" : "delivered; the effect was not read back", reply->delivery);
}

StepOutcome DesktopStepExecutor::set_value(const SetValueStep& step) {
  // The value it replaces, read first: undo sets it back.
  auto probe = probe_element(observer_, step.app, step.window, step.target, after(options_.action_timeout));
  if (!probe) return blocked(probe.error());
  const std::string what = describe_target(step.app, step.target);
  if (probe->matches == 0) {
    return blocked(make_error(ErrorCode::kElementNotFound, "no element matches " + what));
  }
  if (probe->matches > 1) {
    return blocked(make_error(ErrorCode::kAmbiguousTarget, std::to_string(probe->matches) + " elements match " + what,
                              {{"kind", "identity_not_unique"}}));
  }
  auto previous = element_value(*probe->node);
  if (!previous) {
    return blocked(make_error(ErrorCode::kPolicyDenied, what + " is a password field: automations never set it",
                              {{"reason", "secret_required"}}));
  }
  StepOutcome outcome = act(a11y::ActionKind::kSetValue, step.app, step.window, step.target, step.value);
  if (outcome.status == StepStatus::kPassed) {
    outcome.undo = store::UndoRecord{0, store::UndoKind::kRestoreValue, *previous, std::nullopt, std::nullopt};
  }
  return outcome;
}

StepOutcome DesktopStepExecutor::wait(const WaitStep& step, const StepContext& context) {
  const milliseconds timeout = std::chrono::seconds(step.timeout_seconds);
  // Every wait is a11y's: the same conditions, the same event-driven tracker and the same
  // judgement of an element as the wait method's; an element is named by a selector.
  auto condition = std::visit(
      [](const auto& wait) -> Result<a11y::WaitCondition> {
        using T = std::decay_t<decltype(wait)>;
        if constexpr (std::is_same_v<T, WindowAppearsWait>) {
          return a11y::WaitCondition{a11y::WindowAppears{wait.app, wait.title}};
        } else if constexpr (std::is_same_v<T, WindowClosedWait>) {
          return a11y::WaitCondition{a11y::WindowClosed{wait.app, wait.title}};
        } else if constexpr (std::is_same_v<T, TextAppearsWait>) {
          return a11y::WaitCondition{a11y::TextAppears{wait.app, wait.text}};
        } else {
          auto selector = to_selector(wait.app, wait.window, wait.target);
          if (!selector) return std::move(selector).take_error();
          return a11y::WaitCondition{a11y::SelectedElement{*selector, wait.predicate, wait.value}};
        }
      },
      step.condition);
  if (!condition) return blocked(condition.error());
  if (auto st = a11y::validate_condition(*condition); !st) return blocked(st.error());
  const std::string what = waited_for(step.condition);

  // Every wait ends at its next look (within its poll interval) once the stop token fires. A
  // window-closed wait keeps what it saw open from its start, so it runs as one wait; the
  // others hold or not at any moment and also run in slices, so that a look at an app that
  // stopped answering holds a stop up for one slice at most.
  a11y::WaitOptions wait_options;
  wait_options.stop = context.stop;
  const bool sliced = !std::holds_alternative<a11y::WindowClosed>(*condition);
  const auto deadline = SteadyClock::now() + timeout;
  for (;;) {
    const auto slice_end = sliced ? std::min(deadline, SteadyClock::now() + options_.stop_slice) : deadline;
    auto outcome = a11y::wait_for(observer_, *condition, slice_end, wait_options);
    if (outcome) return passed(what + " seen after " + std::to_string(outcome->elapsed.count()) + " ms");
    // A stop wins over whatever the cut-short wait reported (it reports INTERNAL "cancelled").
    if (context.stop.stop_requested()) return stopped();
    const ErrorCode code = outcome.error().code;
    // What waiting cannot settle: a selector two elements match, a password field's value.
    if (code == ErrorCode::kAmbiguousTarget || code == ErrorCode::kPolicyDenied) return blocked(outcome.error());
    if (code != ErrorCode::kTimeout) return outcome_from_error(outcome.error());
    if (SteadyClock::now() >= deadline) {
      return failed(what + " not seen within " + std::to_string(step.timeout_seconds) + " s", ErrorCode::kTimeout);
    }
  }
}

StepOutcome DesktopStepExecutor::check(const CheckStep& step, const StepContext& context) {
  const milliseconds timeout = std::chrono::seconds(step.timeout_seconds);
  return std::visit(
      [&](const auto& check) -> StepOutcome {
        using T = std::decay_t<decltype(check)>;
        if constexpr (std::is_same_v<T, CommandCheck>) {
          auto result = run_command(command_spec(check.command, context.output_cap), clock_, context.stop,
                                    options_.step_processes, context.run_id);
          if (!result) return blocked(result.error());
          if (result->end == CommandEnd::kStopped) return stopped();
          StepOutcome outcome = check_outcome(result->succeeded(), result->describe());
          outcome.output = result->output;
          outcome.output_truncated = result->output_truncated;
          return outcome;
        } else if constexpr (std::is_same_v<T, FileCheck>) {
          if (store::is_store_file(options_.store_path, check.path)) {
            return blocked(make_error(ErrorCode::kPolicyDenied,
                                      check.path + " is one of the daemon's store files, which a check never opens",
                                      {{"reason", "store_file"}, {"path", check.path}},
                                      "check a file the routine's own steps write"));
          }
          return poll(context, timeout, options_.poll_interval, true, [&](Deadline) {
            const FileVerdict verdict = judge_file(check);
            return verdict.holds ? holds(verdict.reason) : not_yet(verdict.reason);
          });
        } else if constexpr (std::is_same_v<T, FrontCheck>) {
          return poll(context, timeout, options_.poll_interval, true, [&](Deadline deadline) {
            auto pids = desktop::accessible_app_pids(observer_, check.app, deadline);
            if (!pids) return refused(pids.error());
            auto connection = x11::Connection::open();
            if (!connection) return refused(connection.error());
            auto active = x11::describe_active_window(*connection);
            if (!active) return not_yet(active.error().message);
            if (!*active) return not_yet("no window is active");
            if (desktop::belongs_to_app(**active, check.app, *pids)) return holds(check.app + " is in front");
            return not_yet("the active window is " + (*active)->wm_class + " \"" + (*active)->title + "\"");
          });
        } else {
          const std::string what = describe_target(check.app, check.target);
          return poll(context, timeout, options_.poll_interval, true, [&](Deadline deadline) {
            auto probe = probe_element(observer_, check.app, check.window, check.target, deadline);
            switch (check.expectation) {
              case ElementExpectation::kState:
                return judged_look(a11y::Predicate::kState, check.expected, probe, what);
              case ElementExpectation::kValue:
                return judged_look(a11y::Predicate::kValue, check.expected, probe, what);
              case ElementExpectation::kText:
                break;
            }
            // Text is no predicate of its own: the one element shows it in its name or value.
            const Look one = judged_look(a11y::Predicate::kExists, std::nullopt, probe, what);
            if (one.kind != Look::Kind::kHolds) return one;
            const a11y::Node& node = *probe->node;
            const auto value = element_value(node).value_or("");
            const bool found = node.name.find(check.expected) != std::string::npos ||
                               value.find(check.expected) != std::string::npos;
            return found ? holds(what + " shows the expected text") : not_yet(what + " does not show the expected text");
          });
        }
      },
      step.condition);
}

// ---- dry run ----------------------------------------------------------------------------

StepOutcome DesktopStepExecutor::dry_run(const Step& step, const StepContext& context) {
  return std::visit(
      [&](const auto& body) -> StepOutcome {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, CommandStep>) {
          if (auto st = check_command_runnable(body.command); !st) return blocked(st.error());
          if (body.undo) {
            if (auto st = check_command_runnable(*body.undo); !st) return blocked(st.error());
          }
          return passed("would run " + body.command.executable + " in " + body.command.cwd);
        } else if constexpr (std::is_same_v<T, OpenLinkStep> || std::is_same_v<T, OpenFileStep>) {
          launch::Target target;
          std::string app = body.app;
          if constexpr (std::is_same_v<T, OpenLinkStep>) {
            target = {launch::TargetKind::kLink, body.url};
          } else {
            target = {launch::TargetKind::kFile, body.path};
          }
          const auto index = options_.launch.index ? launch::DesktopIndex::load(*options_.launch.index)
                                                   : launch::DesktopIndex::load();
          const auto platform = options_.launch.platform ? *options_.launch.platform
                                                         : launch::probe_platform(options_.launch.policy.gio_program);
          auto plan = launch::plan_launch(index, app, target, platform, options_.launch.policy);
          if (!plan) return blocked(plan.error());
          return passed("would open with " + plan->entry.id);
        } else if constexpr (std::is_same_v<T, FocusStep> || std::is_same_v<T, PressStep>) {
          if constexpr (std::is_same_v<T, PressStep>) {
            x11::KeyChord chord;
            if (auto st = check_press_allowed(body, context, chord); !st) return blocked(st.error());
          }
          auto connection = x11::Connection::open();
          if (!connection) return blocked(connection.error());
          auto window = app_window(observer_, body.app, *connection, after(options_.action_timeout));
          if (!window) return blocked(window.error());
          return passed("would act on window \"" + window->title + "\"");
        } else if constexpr (std::is_same_v<T, ClickStep> || std::is_same_v<T, SetValueStep>) {
          auto selector = to_selector(body.app, body.window, body.target);
          if (!selector) return blocked(selector.error());
          auto live = a11y::resolve_live(observer_, *selector, after(options_.action_timeout));
          if (!live) return blocked(live.error());
          if constexpr (std::is_same_v<T, SetValueStep>) {
            if (a11y::is_password_role(live->node.role)) {
              return blocked(make_error(ErrorCode::kPolicyDenied, "the target is a password field",
                                        {{"reason", "secret_required"}}));
            }
          }
          return passed("would act on the one " + describe_target(body.app, body.target) + " in window \"" +
                        live->window.title + "\"");
        } else if constexpr (std::is_same_v<T, WaitStep>) {
          return passed("would wait up to " + std::to_string(body.timeout_seconds) + " s");
        } else if constexpr (std::is_same_v<T, PiStep>) {
          auto program = pi::find_pi();
          if (!program) return blocked(program.error());
          if (auto st = check_step_cwd(body.cwd); !st) return blocked(st.error());
          return passed("would ask " + *program + " in " + body.cwd);
        } else {
          if (const auto* command = std::get_if<CommandCheck>(&body.condition)) {
            if (auto st = check_command_runnable(command->command); !st) return blocked(st.error());
          }
          return passed("would check");
        }
      },
      step.body);
}

// ---- undo -------------------------------------------------------------------------------

Status DesktopStepExecutor::undo(const Step& step, const store::UndoRecord& record, const StepContext& context) {
  switch (record.kind) {
    case store::UndoKind::kRestoreValue: {
      const auto* set = std::get_if<SetValueStep>(&step.body);
      if (set == nullptr || !record.previous_value) {
        return make_error(ErrorCode::kInternal, "a restore-value undo needs a set_value step and its previous value");
      }
      StepOutcome outcome = act(a11y::ActionKind::kSetValue, set->app, set->window, set->target, *record.previous_value);
      if (outcome.status != StepStatus::kPassed) {
        return make_error(outcome.error_code.value_or(ErrorCode::kInternal), outcome.reason);
      }
      return ok_status();
    }
    case store::UndoKind::kCommand: {
      const auto* command = std::get_if<CommandStep>(&step.body);
      if (command == nullptr || !command->undo) {
        return make_error(ErrorCode::kInternal, "a command undo needs a command step that declares one");
      }
      auto result = run_command(command_spec(*command->undo, context.output_cap), clock_, context.stop,
                                options_.step_processes, context.run_id);
      if (!result) return std::move(result).take_error();
      if (!result->succeeded()) {
        return make_error(result->end == CommandEnd::kTimedOut ? ErrorCode::kTimeout : ErrorCode::kInternal,
                          "the undo command did not succeed: " + result->describe());
      }
      return ok_status();
    }
    case store::UndoKind::kCloseWindow:
      return close_launched_window(record);
  }
  return make_error(ErrorCode::kInternal, "unknown undo kind");
}

Status DesktopStepExecutor::close_launched_window(const store::UndoRecord& record) {
  const auto recorded = nlohmann::json::parse(record.window.value_or(""), nullptr, false);
  if (!recorded.is_object() || !recorded.contains("xid")) {
    return make_error(ErrorCode::kInternal, "the undo record names no window");
  }
  auto connection = x11::Connection::open();
  if (!connection) return std::move(connection).take_error();
  const auto xid = recorded["xid"].get<x11::WindowId>();
  auto window = x11::describe_window(*connection, xid);
  if (!window) return ok_status();  // closed already
  // An X id can be reused: a window that is not the one launched is left alone.
  if (window->wm_class != recorded.value("wm_class", "") ||
      (recorded.contains("pid") && window->pid != recorded["pid"].get<long>())) {
    return ok_status();
  }
  if (auto st = x11::close_window(*connection, xid); !st) return st;
  const auto deadline = after(options_.action_timeout);
  while (x11::describe_window(*connection, xid).ok()) {
    if (SteadyClock::now() >= deadline) {
      return make_error(ErrorCode::kTimeout, "the launched window did not close (it may be asking something)",
                        {{"title", window->title}});
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  return ok_status();
}

}  // namespace companyos::automation
