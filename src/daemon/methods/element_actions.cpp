// The element actions: one declaration each, all built by element_action() around the
// semantic action engine (a11y/action_engine.h). Every call is audited (one row: app, target
// role, outcome — never a value or text). click --headed takes the physical route
// (physical_click.h) behind the physical-input gate; nothing else ever does.
#include "daemon/methods/element_actions.h"

#include <algorithm>
#include <string>

#include "a11y/action_engine.h"
#include "a11y/action_reply.h"
#include "a11y/observer.h"
#include "core/delivery.h"
#include "daemon/audited_reply.h"
#include "daemon/bare_ref.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "daemon/physical_click.h"
#include "daemon/physical_input.h"

namespace companyos::daemon::methods {
namespace {

using a11y::ActionKind;

// On top of the expectation's own timeout: resolution, the action, the read-back (0.5 s)
// and an app busy answering the action (1 s).
constexpr std::int64_t kActionBudgetMs = 5000;

// The protocol spells the engine's "set-value" as "set_value", like focus_window.
std::string protocol_name(ActionKind kind) {
  std::string name(a11y::method_name(kind));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::vector<ParamSpec> element_params(ActionKind kind) {
  std::vector<ParamSpec> params = {
      {"ref", ParamType::kString, false,
       "@<snapshot>:e<N>; or e<N> with snapshot, or with app (its window's newest snapshot)"},
      {"snapshot", ParamType::kString, false, "the snapshot a bare ref (e<N>) comes from"},
      {"app", ParamType::kString, false, "selector: application name (or whose snapshot a bare ref is)"},
      {"role", ParamType::kString, false, "selector: role as printed, e.g. \"push button\""},
      {"name", ParamType::kString, false, "selector: exact accessible name"},
      {"id", ParamType::kString, false, "selector: exact accessible id"},
      {"window", ParamType::kString, false, "selector: only this window id"},
      {"title", ParamType::kString, false, "selector: only the window with this title"},
      {"strict", ParamType::kBoolean, false, "refuse unless the SHA-256 fingerprint still matches"},
      {"expect", ParamType::kObject, false,
       "{\"window\":T} | {\"state\":S,\"ref\":R} | {\"text\":T}, each with timeout_ms?"},
      {"timeout_ms", ParamType::kInteger, false, "deadline for the whole action (default 5000 + expect)"},
  };
  switch (kind) {
    case ActionKind::kClick:
      params.push_back({"headed", ParamType::kBoolean, false,
                        "click through the pointer (XTest); needs physical_input=true"});
      break;
    case ActionKind::kNamed:
      params.push_back({"action", ParamType::kString, true, "an action name the element lists"});
      break;
    case ActionKind::kSetValue:
      params.push_back({"value", ParamType::kAny, true, "text, or a number for sliders and spin buttons"});
      params.push_back({"secret", ParamType::kBoolean, false, "password text: never logged or shown"});
      break;
    case ActionKind::kType:
      params.push_back({"text", ParamType::kString, true, "text to insert at the caret"});
      params.push_back({"secret", ParamType::kBoolean, false, "password text: never logged or shown"});
      break;
    default:
      break;
  }
  return params;
}

Error not_delivered(Error error) { return with_delivery(std::move(error), Delivery::kNotDelivered); }

// The whole action's deadline: timeout_ms, else the budget plus what the expectation may wait.
std::int64_t timeout_ms(const nlohmann::json& params, const a11y::ActionRequest& request) {
  if (params.contains("timeout_ms")) return params["timeout_ms"].get<std::int64_t>();
  const std::int64_t expected = request.expect ? request.expect->timeout.count() : 0;
  return std::min<std::int64_t>(kActionBudgetMs + expected, kMaxObservationTimeout.count());
}

template <ActionKind Kind>
void perform(const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
  reply = audited_reply(ctx, protocol_name(Kind), params.value("app", ""), std::move(reply));
  auto request = element_action_request(Kind, params, ctx.observer.store());
  if (!request) return reply(std::move(request).take_error());
  const bool headed = params.value("headed", false);
  if (headed) {
    if (auto gate = check_physical_input(ctx.settings, true); !gate) {
      return reply(not_delivered(std::move(gate).take_error()));
    }
  }
  nlohmann::json run_params = {{"timeout_ms", timeout_ms(params, *request)}};
  a11y::ActionEngine& engine = ctx.actions;
  run_observation(run_params, ctx, std::move(reply),
                  [&engine, request = std::move(request).value(), headed](
                      a11y::Observer& observer, Deadline deadline) -> Result<nlohmann::json> {
                    if (headed) return physical_click(observer, request, deadline);
                    auto done = engine.perform(request, deadline);
                    if (!done) return std::move(done).take_error();
                    return a11y::action_reply_to_json(*done);
                  });
}

template <ActionKind Kind>
MethodSpec element_action(std::string_view name, std::string_view summary) {
  return MethodSpec{.name = name,
                    .summary = summary,
                    .params = element_params(Kind),
                    .target = TargetKind::kElement,
                    .flags = kFlagEffectful,
                    .handler = &perform<Kind>};
}

}  // namespace

std::optional<ActionKind> element_action_kind(std::string_view method) {
  std::string spelled(method);
  std::replace(spelled.begin(), spelled.end(), '_', '-');
  const auto kind = a11y::action_kind_from_method(spelled);
  if (!kind || protocol_name(*kind) != method) return std::nullopt;
  return kind;
}

Result<a11y::ActionRequest> element_action_request(ActionKind kind, const nlohmann::json& params,
                                                   const a11y::SnapshotStore& snapshots) {
  const auto stored = snapshots.list();
  auto bound = bind_bare_ref(params, stored);
  if (!bound) return not_delivered(std::move(bound).take_error());
  bound->erase("timeout_ms");
  bound->erase("headed");
  auto request = a11y::parse_action_request(kind, *bound);
  if (!request) return not_delivered(std::move(request).take_error());
  return request;
}

const MethodSpec kClick = element_action<ActionKind::kClick>(
    "click", "click/press/activate an element by action name; headed: through the pointer");
const MethodSpec kToggle = element_action<ActionKind::kToggle>(
    "toggle", "flip a check box or toggle button; verified by its checked state");
const MethodSpec kSelect = element_action<ActionKind::kSelect>(
    "select", "select an item in its list, combo or tab list; verified by its selection");
const MethodSpec kFocus = element_action<ActionKind::kFocus>(
    "focus", "give an element the keyboard focus; verified by its focused state");
const MethodSpec kExpand = element_action<ActionKind::kExpand>(
    "expand", "expand a tree row or expander; already expanded sends nothing");
const MethodSpec kCollapse = element_action<ActionKind::kCollapse>(
    "collapse", "collapse a tree row or expander; already collapsed sends nothing");
const MethodSpec kNamedAction = element_action<ActionKind::kNamed>(
    "action", "perform an action the element lists, by its name");
const MethodSpec kSetValue = element_action<ActionKind::kSetValue>(
    "set_value", "replace an element's text or number; verified by reading it back");
const MethodSpec kType = element_action<ActionKind::kType>(
    "type", "insert text at the caret; verified by reading the text back");

}  // namespace companyos::daemon::methods
