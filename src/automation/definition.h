// An automation's definition (docs/automations.md) as plain values. A
// Definition comes only out of validate_definition (validation.h); to_json gives back its
// canonical JSON: every field present, defaults filled in, optional fields only when set.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "a11y/predicate.h"

namespace companyos::automation {

inline constexpr std::string_view kDefaultTimeZone = "UTC";
inline constexpr int kDefaultMaxRetries = 0;
inline constexpr int kDefaultRetryIntervalSeconds = 10;
inline constexpr int kDefaultHistoryLimit = 30;
inline constexpr int kDefaultCommandTimeoutSeconds = 60;
inline constexpr int kDefaultWaitTimeoutSeconds = 30;
inline constexpr int kDefaultCheckTimeoutSeconds = 10;
inline constexpr int kDefaultPiTimeoutSeconds = 900;

// An element named by its identity within the app's windows, resolved live at every run.
// Refs (@s1a:e12) are refused in definitions: they belong to one snapshot.
// within: an ancestor, named the same way, that must be the only one of its kind in the
// window; the element must then be the only one of its kind under it (for twins such as
// LibreOffice's two menu bars' "Save"). Only steps that act (click, set_value) take one.
struct ElementScope {
  std::string role;
  std::string name;
  std::optional<std::string> id;
  friend bool operator==(const ElementScope&, const ElementScope&) = default;
};

struct ElementSelector {
  std::string role;               // as snapshots print it: "push button", "text"
  std::string name;               // exact; "" only together with id
  std::optional<std::string> id;  // the accessible id
  std::optional<ElementScope> within = std::nullopt;
  friend bool operator==(const ElementSelector&, const ElementSelector&) = default;
};

// A program run from an argument vector (never through a shell), in its own process group
// with stdin closed, killed with its group at the timeout.
struct CommandLine {
  std::string executable;         // an absolute path, or a bare name looked up in $PATH
  std::vector<std::string> argv;  // the arguments after the program
  std::string cwd;                // absolute
  int timeout_seconds = kDefaultCommandTimeoutSeconds;
  std::map<std::string, std::string> env;  // set on top of the daemon's environment
  friend bool operator==(const CommandLine&, const CommandLine&) = default;
};

struct CommandStep {
  CommandLine command;
  std::optional<CommandLine> undo;  // what `run undo` runs; makes the step reversible
  friend bool operator==(const CommandStep&, const CommandStep&) = default;
};

struct OpenLinkStep {
  std::string url;
  std::string app;
  friend bool operator==(const OpenLinkStep&, const OpenLinkStep&) = default;
};

struct OpenFileStep {
  std::string path;  // absolute
  std::string app;
  friend bool operator==(const OpenFileStep&, const OpenFileStep&) = default;
};

struct FocusStep {
  std::string app;
  friend bool operator==(const FocusStep&, const FocusStep&) = default;
};

struct PressStep {
  std::string chord;
  std::string app;
  friend bool operator==(const PressStep&, const PressStep&) = default;
};

// window: the exact title of the window to look in (window ids do not outlive a window);
// absent means every window of the app, where the target must still be unique.
struct ClickStep {
  std::string app;
  std::optional<std::string> window;
  ElementSelector target;
  friend bool operator==(const ClickStep&, const ClickStep&) = default;
};

struct SetValueStep {
  std::string app;
  std::optional<std::string> window;
  ElementSelector target;
  std::string value;
  friend bool operator==(const SetValueStep&, const SetValueStep&) = default;
};

// A prompt for pi, the coding agent (`pi --mode rpc --no-session`, found on PATH when the
// step runs), started in cwd. Its final assistant output is the step's result; its
// questions wait for the person. The timeout covers the whole step, waits for answers
// included.
struct PiStep {
  std::string prompt;
  std::string cwd;  // absolute
  int timeout_seconds = kDefaultPiTimeoutSeconds;
  friend bool operator==(const PiStep&, const PiStep&) = default;
};

// ---- wait: the conditions of a11y/wait.h, with selectors instead of refs -----------------

struct WindowAppearsWait {
  std::string app;
  std::string title;
  friend bool operator==(const WindowAppearsWait&, const WindowAppearsWait&) = default;
};

struct WindowClosedWait {
  std::string app;
  std::optional<std::string> title;
  friend bool operator==(const WindowClosedWait&, const WindowClosedWait&) = default;
};

struct TextAppearsWait {
  std::string app;
  std::string text;
  friend bool operator==(const TextAppearsWait&, const TextAppearsWait&) = default;
};

// Its predicate is a11y's, as the wait method spells it: "exists", "gone", "value", "state".
struct ElementWait {
  std::string app;
  std::optional<std::string> window;
  ElementSelector target;
  a11y::Predicate predicate = a11y::Predicate::kExists;
  std::optional<std::string> value;  // the value, or the state name; only for value/state
  friend bool operator==(const ElementWait&, const ElementWait&) = default;
};

using WaitCondition =
    std::variant<WindowAppearsWait, WindowClosedWait, TextAppearsWait, ElementWait>;

struct WaitStep {
  WaitCondition condition;
  int timeout_seconds = kDefaultWaitTimeoutSeconds;
  friend bool operator==(const WaitStep&, const WaitStep&) = default;
};

// ---- check: postconditions that count as passed or failed for the gate ------------------

struct FrontCheck {
  std::string app;
  friend bool operator==(const FrontCheck&, const FrontCheck&) = default;
};

enum class ElementExpectation {
  kState,  // the element has this state ("checked")
  kValue,  // its value is exactly this
  kText,   // this is an exact substring of its name or value
};

struct ElementCheck {
  std::string app;
  std::optional<std::string> window;
  ElementSelector target;
  ElementExpectation expectation = ElementExpectation::kValue;
  std::string expected;
  friend bool operator==(const ElementCheck&, const ElementCheck&) = default;
};

enum class FileExpectation {
  kEquals,    // the whole content, byte for byte
  kContains,  // a byte substring of the content
  kSha256,    // the content's SHA-256, 64 lower-case hex digits
};

struct FileCheck {
  std::string path;
  FileExpectation expectation = FileExpectation::kEquals;
  std::string expected;
  friend bool operator==(const FileCheck&, const FileCheck&) = default;
};

// Passes when the command exits 0 within its timeout.
struct CommandCheck {
  CommandLine command;
  friend bool operator==(const CommandCheck&, const CommandCheck&) = default;
};

using CheckCondition = std::variant<FrontCheck, ElementCheck, FileCheck, CommandCheck>;

// Front, element and file checks re-read until they hold or timeout_seconds pass, since an
// app may apply an action a moment after it accepted it; a command check's timeout is its
// command's.
struct CheckStep {
  CheckCondition condition;
  int timeout_seconds = kDefaultCheckTimeoutSeconds;
  friend bool operator==(const CheckStep&, const CheckStep&) = default;
};

// ---- steps and the definition -----------------------------------------------------------

// In the order of StepBody's alternatives.
enum class StepType {
  kCommand,
  kOpenLink,
  kOpenFile,
  kFocus,
  kPress,
  kClick,
  kSetValue,
  kWait,
  kCheck,
  kPi
};

using StepBody = std::variant<CommandStep, OpenLinkStep, OpenFileStep, FocusStep, PressStep,
                              ClickStep, SetValueStep, WaitStep, CheckStep, PiStep>;

struct Step {
  StepBody body;
  std::optional<std::string> description;  // shown when the step waits for approval
  friend bool operator==(const Step&, const Step&) = default;
};

enum class Phase { kPreconditions, kActions, kPostActions };

struct Definition {
  std::string name;
  bool enabled = true;
  std::optional<std::string> schedule;  // five-field cron; nullopt = manual runs only
  std::string timezone = std::string(kDefaultTimeZone);
  int max_retries = kDefaultMaxRetries;
  int retry_interval_seconds = kDefaultRetryIntervalSeconds;
  int history_limit = kDefaultHistoryLimit;
  std::vector<Step> preconditions;
  std::vector<Step> actions;
  std::vector<Step> post_actions;

  const std::vector<Step>& steps(Phase phase) const;
  std::size_t step_count() const;
  friend bool operator==(const Definition&, const Definition&) = default;
};

// "command", "open_link", "open_file", "focus", "press", "click", "set_value", "wait", "check",
// "pi".
std::string_view to_string(StepType type);
std::optional<StepType> step_type_from_string(std::string_view name);
StepType step_type(const Step& step);

// "exists", "gone", "value", "state".
// "state", "value", "text".
std::string_view to_string(ElementExpectation expectation);
// "equals", "contains", "sha256".
std::string_view to_string(FileExpectation expectation);

// "preconditions", "actions", "postActions": the definition's field names.
std::string_view to_string(Phase phase);
// "actions[2]": where a step sits, as validation problems and the gate name it.
std::string step_path(Phase phase, std::size_t index);
// Every step, preconditions first, then actions, then postActions.
void for_each_step(const Definition& definition,
                   const std::function<void(Phase, std::size_t, const Step&)>& visit);

nlohmann::json to_json(const ElementSelector& selector);
nlohmann::json to_json(const CommandLine& command);
nlohmann::json to_json(const Step& step);
nlohmann::json to_json(const Definition& definition);

}  // namespace companyos::automation
