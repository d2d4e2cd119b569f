#include "daemon/methods/opened.h"

#include <chrono>
#include <thread>
#include <variant>

#include "a11y/ref.h"
#include "a11y/vocabulary.h"
#include "daemon/wire/a11y_replies.h"

namespace companyos::daemon::methods {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How long a new dialog or menu is looked for where one is expected: the element says it
// opens something, or the action call went unanswered (the app runs a dialog inside it).
// Elsewhere the look is once, right after the action: a click that opens nothing must not
// wait for nothing.
constexpr auto kOpenSettle = 1500ms;
constexpr auto kLookInterval = 50ms;
// One listing of the app's windows: a hung app must leave the action its own deadline.
constexpr auto kListingBudget = 250ms;

bool may_open_something(a11y::ActionKind kind) {
  return kind == a11y::ActionKind::kClick || kind == a11y::ActionKind::kNamed || kind == a11y::ActionKind::kExpand;
}

std::optional<std::string> app_of(a11y::Observer& observer, const a11y::ActionTarget& target) {
  if (const auto* selector = std::get_if<a11y::Selector>(&target)) return selector->app;
  auto ref = a11y::parse_ref(std::get<a11y::RefTarget>(target).ref);
  if (!ref) return std::nullopt;
  auto stored = observer.store().lookup(*ref);
  if (!stored) return std::nullopt;
  return stored->snapshot->app_name;
}

nlohmann::json new_windows(a11y::Observer& observer, const BeforeAction& before, Deadline deadline) {
  nlohmann::json found = nlohmann::json::array();
  auto windows = observer.windows(before.app, deadline);
  if (!windows) return found;
  for (const auto& window : *windows) {
    if (!before.window_ids.contains(window.id)) found.push_back(wire::window_to_json(window));
  }
  return found;
}

// The surface the target opened: one open now whose opener is the target (same role and
// name in the target's window), the innermost if several.
nlohmann::json opened_surface(a11y::Observer& observer, const BeforeAction& before,
                              const a11y::ActionTargetSummary& target, Deadline deadline) {
  const a11y::WindowQuery query{.app = before.app, .window_id = target.window_id, .title = {}};
  auto open = observer.surfaces(query, deadline);
  if (!open) return nullptr;
  for (auto it = open->rbegin(); it != open->rend(); ++it) {
    if (it->surface.opener < 0) continue;
    const a11y::Node& opener = it->snapshot->nodes[static_cast<std::size_t>(it->surface.opener)];
    if (a11y::role_name(opener.role) == target.role && opener.name == target.name) {
      return wire::surface_to_json(*it);
    }
  }
  return nullptr;
}

}  // namespace

std::optional<BeforeAction> look_before(a11y::Observer& observer, const a11y::ActionRequest& request,
                                        Deadline deadline) {
  if (!may_open_something(request.kind)) return std::nullopt;
  auto app = app_of(observer, request.target);
  if (!app) return std::nullopt;
  auto windows = observer.windows(*app, std::min(deadline, Clock::now() + kListingBudget));
  if (!windows) return std::nullopt;
  BeforeAction before{.app = *app, .window_ids = {}};
  for (const auto& window : *windows) before.window_ids.insert(window.id);
  return before;
}

nlohmann::json what_opened(a11y::Observer& observer, const BeforeAction& before, const a11y::ActionReply& reply,
                           Deadline deadline) {
  if (reply.delivery == Delivery::kNotDelivered) return nullptr;
  const bool expected = reply.target.opens_something || !reply.answered;
  const auto until = std::min(deadline, Clock::now() + (expected ? kOpenSettle : 0ms));
  for (;;) {
    auto windows = new_windows(observer, before, deadline);
    nlohmann::json surface(nullptr);
    if (windows.empty() && reply.target.opens_something) {
      surface = opened_surface(observer, before, reply.target, deadline);
    }
    if (!windows.empty() || !surface.is_null() || Clock::now() + kLookInterval >= until) {
      return {{"windows", std::move(windows)}, {"surface", std::move(surface)}};
    }
    std::this_thread::sleep_for(kLookInterval);
  }
}

}  // namespace companyos::daemon::methods
