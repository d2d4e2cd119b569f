// The element actions: one declaration each, all built by element_action() around the
// semantic action engine (a11y/action_engine.h). Every call is audited (one row: app, target
// role, outcome — never a value or text). With --headed, behind the physical-input gate,
// click goes through the pointer (physical_click.h), and set-value and type through the
// keyboard (keyboard_typing.h); nothing else ever takes a physical route.
#include "daemon/methods/element_actions.h"

#include <algorithm>
#include <vector>
#include <string>

#include "a11y/action_engine.h"
#include "a11y/observer.h"
#include "core/delivery.h"
#include "daemon/wire/bare_ref.h"
#include "daemon/context.h"
#include "daemon/methods/combo_option.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "daemon/methods/opened.h"
#include "daemon/methods/settled_state.h"
#include "a11y/ref.h"
#include "a11y/settle.h"
#include "desktop/keyboard_typing.h"
#include "desktop/physical_click.h"
#include "daemon/methods/physical_input.h"
#include "daemon/wire/a11y_replies.h"
#include "daemon/wire/action_params.h"

namespace companyos::daemon::methods {
namespace {

using a11y::ActionKind;

// On top of the expectation's own timeout: resolution, the action, the read-back (0.5 s)
// and an app busy answering the action (1 s).
constexpr std::int64_t kActionBudgetMs = 5000;

Error not_delivered(Error error) { return with_delivery(std::move(error), Delivery::kNotDelivered); }

// The whole action's deadline: timeout_ms, else the budget plus what the expectation may wait.
std::int64_t timeout_ms(const nlohmann::json& params, const a11y::ActionRequest& request) {
  if (params.contains("timeout_ms")) return params["timeout_ms"].get<std::int64_t>();
  const std::int64_t expected = request.expect ? request.expect->timeout.count() : 0;
  return std::min<std::int64_t>(kActionBudgetMs + expected, declared::kMaxObservationTimeout.count());
}

// Where an action's reaction is watched: its app, window and bus names, known before it is
// sent (a ref names them; a selector names the app).
struct SettleTarget {
  std::string app;
  std::optional<std::string> window_id;
  std::vector<std::string> bus_names;
  std::vector<std::string> windows_before;  // the app's windows known before the action
};

SettleTarget settle_target(a11y::Observer& observer, const a11y::ActionRequest& request, Deadline deadline) {
  SettleTarget where;
  if (const auto* ref = std::get_if<a11y::RefTarget>(&request.target)) {
    if (auto parsed = a11y::parse_ref(ref->ref)) {
      if (auto stored = observer.store().lookup(*parsed)) {
        where.app = stored->snapshot->app_name;
        where.window_id = stored->snapshot->window.id;
        where.bus_names = {stored->snapshot->window.bus_name};
      }
    }
  } else {
    const auto& selector = std::get<a11y::Selector>(request.target);
    where.app = selector.app;
    where.window_id = selector.window_id;
    where.bus_names = bus_names_of(observer, selector.app, deadline);
  }
  where.windows_before = known_window_ids(observer, where.bus_names);
  return where;
}

// The action's reply, with the settled state when it was asked for and the action went out.
nlohmann::json with_state(nlohmann::json json, a11y::Observer& observer, a11y::SettleWatch* watch,
                          const SettleTarget& where, const a11y::ActionReply& done, Deadline deadline) {
  if (watch == nullptr || where.app.empty()) return json;
  const std::optional<std::string> window =
      done.target.window_id.empty() ? where.window_id : std::optional<std::string>(done.target.window_id);
  const auto known = window ? observer.bus().known_window(*window) : std::nullopt;
  const a11y::SettleRule rule = a11y::settle_rule_for(known ? known->states : 0, done.effect_delay);
  json["state"] = settled_state(observer, *watch, rule, where.app, window, where.windows_before, deadline);
  return json;
}

template <ActionKind Kind>
void perform(const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
  auto request = element_action_request(Kind, params, ctx.observer.store());
  if (!request) return reply(std::move(request).take_error());
  const bool headed = params.value("headed", false);
  if (headed) {
    if (auto gate = check_physical_input(ctx.settings, true); !gate) {
      return reply(not_delivered(std::move(gate).take_error()));
    }
  }
  if (headed && (Kind == ActionKind::kSetValue || Kind == ActionKind::kType)) {
    request->keyboard = desktop::keyboard_typing();
  } else if ((Kind == ActionKind::kSetValue || Kind == ActionKind::kType) && check_physical_input(ctx.settings, true)) {
    // The person allows physical input: where only the keyboard can change the text
    // (Gecko ignores EditableText; Chromium's web inputs lack it), the keyboard does.
    request->keyboard_where_needed = desktop::keyboard_typing();
  }
  const bool settle = params.value("settle", false);
  std::int64_t budget = timeout_ms(params, *request);
  if (settle) budget = std::min<std::int64_t>(budget + kSettleBudget.count(), declared::kMaxObservationTimeout.count());
  nlohmann::json run_params = {{"timeout_ms", budget}};
  request->caller_gone = reply.client_gone();
  a11y::ActionEngine& engine = ctx.actions;
  run_observation(run_params, ctx, std::move(reply),
                  [&engine, request = std::move(request).value(), headed, settle](
                      a11y::Observer& observer, Deadline deadline) -> Result<nlohmann::json> {
                    SettleTarget where;
                    std::optional<a11y::SettleWatch> watch;
                    if (settle) {
                      where = settle_target(observer, request, deadline);
                      watch.emplace(observer, where.bus_names, deadline);
                    }
                    const auto before = look_before(observer, request, deadline);
                    const auto opened = [&](const a11y::ActionReply& done, nlohmann::json json) {
                      if (before) json["opened"] = what_opened(observer, *before, done, deadline);
                      return with_state(std::move(json), observer, watch ? &*watch : nullptr, where, done, deadline);
                    };
                    if (headed && Kind == ActionKind::kClick) {
                      auto clicked = desktop::physical_click(observer, request, deadline);
                      if (!clicked) return std::move(clicked).take_error();
                      return opened(clicked->action, wire::pointer_click_to_json(*clicked));
                    }
                    auto done = engine.perform(request, deadline);
                    if (!done && Kind == ActionKind::kSetValue && is_combo_box_refusal(done.error())) {
                      done = pick_combo_option(observer, engine, request, deadline);
                    }
                    if (!done) return std::move(done).take_error();
                    return opened(*done, wire::action_reply_to_json(*done));
                  });
}

}  // namespace

// Each element action's method and the engine's action it asks for, listed once: the
// handlers and element_action_kind (batch plans, settled replies) expand it.
#define COMPANYOS_ELEMENT_ACTIONS(X) \
  X(Click, kClick)                   \
  X(Toggle, kToggle)                 \
  X(Select, kSelect)                 \
  X(Focus, kFocus)                   \
  X(Expand, kExpand)                 \
  X(Collapse, kCollapse)             \
  X(NamedAction, kNamed)             \
  X(SetValue, kSetValue)             \
  X(Type, kType)

#define COMPANYOS_ELEMENT_ACTION_SPEC(method, kind) \
  const MethodSpec k##method{declared::k##method, &perform<ActionKind::kind>};
COMPANYOS_ELEMENT_ACTIONS(COMPANYOS_ELEMENT_ACTION_SPEC)
#undef COMPANYOS_ELEMENT_ACTION_SPEC

std::optional<ActionKind> element_action_kind(std::string_view method) {
#define COMPANYOS_ELEMENT_ACTION_KIND(method_name, kind) {&k##method_name, ActionKind::kind},
  static constexpr std::pair<const MethodSpec*, ActionKind> kActions[] = {
      COMPANYOS_ELEMENT_ACTIONS(COMPANYOS_ELEMENT_ACTION_KIND)};
#undef COMPANYOS_ELEMENT_ACTION_KIND
  for (const auto& [spec, kind] : kActions) {
    if (spec->decl.name == method) return kind;
  }
  return std::nullopt;
}

#undef COMPANYOS_ELEMENT_ACTIONS

Result<a11y::ActionRequest> element_action_request(ActionKind kind, const nlohmann::json& params,
                                                   const a11y::SnapshotStore& snapshots) {
  const auto stored = snapshots.list();
  auto bound = wire::bind_bare_ref(params, stored);
  if (!bound) return not_delivered(std::move(bound).take_error());
  bound->erase("timeout_ms");
  bound->erase("headed");
  bound->erase("settle");
  auto request = wire::parse_action_request(kind, *bound);
  if (!request) return not_delivered(std::move(request).take_error());
  return request;
}


}  // namespace companyos::daemon::methods
