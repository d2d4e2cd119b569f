#include "core/methods/params.h"

namespace companyos::methods {
namespace {

enum class Extra { kNone, kHeaded, kActionName, kValue, kText };

// A target (a ref, or a selector), then what every element action takes, then its own.
std::vector<ParamSpec> element_params(Extra extra) {
  std::vector<ParamSpec> params = {
      {.name = "ref",
       .help = "@<snapshot>:e<N>; or e<N> with snapshot, or with app (its window's newest snapshot)"},
      {.name = "snapshot", .help = "the snapshot a bare ref e<N> comes from"},
      {.name = "app", .help = "selector: application name (with a bare ref: whose snapshot)"},
      {.name = "role", .help = "selector: role as printed, e.g. \"push button\""},
      {.name = "name", .help = "selector: exact accessible name"},
      {.name = "id", .help = "selector: exact accessible id"},
      {.name = "window", .help = "only this window id (from `companyos windows`)"},
      {.name = "title", .help = "only the window with this exact title", .excludes = "window"},
      {.name = "within",
       .help = "a scope: the element must be unique under this ancestor (a ref of the same window, "
               "e<N> from the same snapshot), which must itself be unique"},
      {.name = "cell",
       .help = "a cell of the table the ref or selector names, by address (B3): shown or not; with app "
               "alone, of the window's one table on screen (a spreadsheet's sheet)"},
      {.name = "strict", .type = ParamType::kBoolean,
       .help = "refuse unless the element's SHA-256 fingerprint still matches"},
      {.name = "expect", .type = ParamType::kObject,
       .help = "{\"window\":T} | {\"state\":S,\"ref\":R} | {\"text\":T}, each with timeout_ms?"},
      {.name = "timeout_ms", .type = ParamType::kInteger,
       .help = "deadline for the whole action, in ms (default 5000 + the expectation's)",
       .range = IntRange{1, kMaxObservationTimeout.count()}, .option = "--timeout"},
      shared::settle(),
  };
  switch (extra) {
    case Extra::kHeaded:
      params.push_back({.name = "headed", .type = ParamType::kBoolean,
                        .help = "click through the pointer (XTest): needs the setting physical_input=true"});
      break;
    case Extra::kActionName:
      params.push_back({.name = "action", .required = true, .help = "an action name the element lists"});
      break;
    case Extra::kValue:
      params.push_back({.name = "value", .type = ParamType::kAny, .required = true,
                        .help = "text, or a number for sliders and spin buttons"});
      params.push_back({.name = "secret", .type = ParamType::kBoolean,
                        .help = "the text is secret (needed for password fields): never logged or shown"});
      params.push_back({.name = "headed", .type = ParamType::kBoolean,
                        .help = "focus the element and type through the keyboard (XTest), replacing "
                                "its text: needs the setting physical_input=true"});
      break;
    case Extra::kText:
      params.push_back({.name = "text", .required = true, .help = "text to insert at the caret"});
      params.push_back({.name = "secret", .type = ParamType::kBoolean,
                        .help = "the text is secret (needed for password fields): never logged or shown"});
      params.push_back({.name = "headed", .type = ParamType::kBoolean,
                        .help = "focus the element and type through the keyboard (XTest) at the end "
                                "of its text: needs the setting physical_input=true"});
      break;
    case Extra::kNone:
      break;
  }
  return params;
}

MethodDeclaration element_action(std::string_view name, std::string_view command, std::string_view summary,
                                 Extra extra, std::string_view returns) {
  return {.name = name,
          .command = command,
          .summary = summary,
          .params = element_params(extra),
          .target = TargetKind::kElement,
          .flags = kFlagEffectful | kFlagBatchable,
          .returns = returns};
}

}  // namespace

const MethodDeclaration kClick = element_action(
    "click", "click", "click/press/activate an element by action name; headed: through the pointer", Extra::kHeaded,
    R"(`method`, `delivery`, `retry`, `route`, `first_route` (a cell entered again as typed), `target` (ref, app, pid, window, role, name, position), `verification`, `expectation`, `fingerprint` (strict), `already`, `answered`, `timings`, `ms` — see [actions.md](actions.md#element-actions))");
const MethodDeclaration kToggle = element_action(
    "toggle", "toggle", "flip a check box or toggle button; verified by its checked state", Extra::kNone,
    R"(as `click`)");
const MethodDeclaration kSelect = element_action(
    "select", "select", "select an item in its list, combo or tab list; verified by its selection", Extra::kNone,
    R"(as `click`)");
const MethodDeclaration kFocus = element_action(
    "focus", "focus", "give an element the keyboard focus; verified by its focused state", Extra::kNone,
    R"(as `click`)");
const MethodDeclaration kExpand = element_action(
    "expand", "expand", "expand a tree row or expander; already expanded sends nothing", Extra::kNone,
    R"(as `click`)");
const MethodDeclaration kCollapse = element_action(
    "collapse", "collapse", "collapse a tree row or expander; already collapsed sends nothing", Extra::kNone,
    R"(as `click`)");
const MethodDeclaration kNamedAction = element_action(
    "action", "action", "perform an action the element lists, by its name", Extra::kActionName,
    R"(as `click`)");
const MethodDeclaration kSetValue = element_action(
    "set_value", "set-value", "replace an element's text or number; verified by reading it back", Extra::kValue,
    R"(as `click`; `verification` never holds secret text)");
const MethodDeclaration kType = element_action(
    "type", "type", "insert text at the caret; verified by reading the text back", Extra::kText,
    R"(as `set_value`)");

const MethodDeclaration kBatch{
    .name = "batch",
    .command = "batch",
    .summary = "run actions in order; per-step results; optionally stop at the first error",
    .params = {{.name = "steps", .type = ParamType::kArray, .required = true,
                .help = "[{\"command\":\"set-value\",\"args\":{…}}, …], at most 100 actions"},
               {.name = "stop_on_error", .type = ParamType::kBoolean,
                .help = "report the steps after a failure as not run"}},
    .flags = kFlagEffectful | kFlagAuditsItsSteps,
    .returns = R"(`steps` (each `step`, `command`, `status` ok / error / not_run, `data` or `error`), `succeeded`, `failed`, `not_run`, `stopped`)",
};

}  // namespace companyos::methods
