#include "desktop/physical_click.h"

#include <atspi/atspi.h>

#include "a11y/action_expectation.h"
#include "a11y/action_policy.h"
#include "a11y/fingerprint.h"
#include "a11y/live_resolve.h"
#include "a11y/observer.h"
#include "a11y/vocabulary.h"
#include "core/delivery.h"
#include "desktop/input_lock.h"
#include "desktop/target_window.h"
#include "desktop/window_resolver.h"
#include "x11/activation.h"
#include "x11/pointer.h"
#include "x11/windows.h"

namespace companyos::desktop {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

class PhysicalClick {
 public:
  PhysicalClick(a11y::Observer& observer, const a11y::ActionRequest& request, Deadline deadline)
      : observer_(observer), request_(request), deadline_(deadline) {}

  Result<PointerClickReply> run();

 private:
  Result<a11y::LiveTarget> resolve();
  Status check_fingerprint(const a11y::LiveTarget& now) const;
  Result<bool> window_relative_bounds();
  Status bring_forward(x11::Connection& connection);
  Result<ScreenPoint> point_on(x11::Connection& connection, const a11y::LiveTarget& now);
  Status click(x11::Connection& connection, ScreenPoint point);
  void summarize(const a11y::LiveTarget& target);

  Error refuse(Error error) const { return marked(std::move(error), Delivery::kNotDelivered); }
  Error marked(Error error, Delivery delivery) const {
    Error result = with_delivery(std::move(error), delivery);
    if (target_) {
      result.details["target"] = {{"app", target_->app_name},
                                  {"window", target_->window.id},
                                  {"role", a11y::role_name(target_->node.role)},
                                  {"name", target_->node.name}};
    }
    return result;
  }

  a11y::Observer& observer_;
  const a11y::ActionRequest& request_;
  const Deadline deadline_;
  const Clock::time_point started_ = Clock::now();
  std::optional<a11y::LiveTarget> target_;
  std::optional<a11y::FingerprintInput> fingerprint_;
  x11::WindowId xid_ = 0;
  a11y::ActionReply reply_;
};

Result<a11y::LiveTarget> PhysicalClick::resolve() {
  a11y::ResolveOptions options;
  options.read_bounds = true;
  auto target = a11y::resolve_live(observer_, request_.target, deadline_, options);
  if (!target) return refuse(std::move(target).take_error());
  if (auto allowed = a11y::check_action_policy(a11y::ActionKind::kClick, target->node.role,
                                               target->node.states, false);
      !allowed) {
    target_ = *target;
    return refuse(std::move(allowed).take_error());
  }
  return target;
}

// Strict: what the element was when it was observed (the snapshot's record of a ref, or
// the first resolution of a selector) must equal what is about to be clicked.
Status PhysicalClick::check_fingerprint(const a11y::LiveTarget& now) const {
  if (!request_.strict) return ok_status();
  const a11y::FingerprintInput actual{a11y::identity_of(now.node), now.window.id, now.pid,
                                      now.node.bounds};
  if (auto same = a11y::check_unchanged(*fingerprint_, actual); !same) return refuse(std::move(same).take_error());
  return ok_status();
}

// GTK4 answers extents in window coordinates whatever it is asked.
Result<bool> PhysicalClick::window_relative_bounds() {
  a11y::CallScope scope(deadline_);
  auto app = observer_.bus().app_channel(scope, target_->bus_name);
  if (!app) return refuse(std::move(app).take_error());
  return app->traits().extents_coord_type == ATSPI_COORD_TYPE_WINDOW;
}

Status PhysicalClick::bring_forward(x11::Connection& connection) {
  auto clients = x11::list_windows(connection);
  if (!clients) return refuse(std::move(clients).take_error());
  const auto xid = match_x11_window(target_->window, *clients);
  if (!xid) {
    return refuse(make_error(ErrorCode::kWindowNotFound,
                             "cannot pair window \"" + target_->window.title +
                                 "\" with exactly one X11 window",
                             {{"window", target_->window.id}}));
  }
  xid_ = xid->id;
  if (auto st = x11::activate_window(connection, xid_); !st) return refuse(std::move(st).take_error());
  auto active = x11::active_window(connection);
  if (!active || !*active || **active != xid_) {
    return refuse(make_error(ErrorCode::kPolicyDenied, "the target window did not stay active",
                             {{"reason", "not_active"}}, "close whatever holds the focus, then retry"));
  }
  return ok_status();
}

Result<ScreenPoint> PhysicalClick::point_on(x11::Connection& connection, const a11y::LiveTarget& now) {
  if (!now.node.bounds) {
    return refuse(make_error(ErrorCode::kActionNotSupported, "the element has no bounds on screen",
                             {{"kind", "offscreen"}}, "scroll it into view, or click without --headed"));
  }
  auto relative = window_relative_bounds();
  if (!relative) return std::move(relative).take_error();
  auto client = x11::describe_window(connection, xid_);
  if (!client) return refuse(std::move(client).take_error());
  const auto point = click_point(*now.node.bounds, *relative, client->bounds);
  if (!point) {
    return refuse(make_error(ErrorCode::kActionNotSupported,
                             "the element's centre is not inside its window",
                             {{"kind", "outside_window"}},
                             "scroll it into view, or click without --headed"));
  }
  return *point;
}

// The pointer moving reaches no app; once the button went down, the click may have.
Status PhysicalClick::click(x11::Connection& connection, ScreenPoint point) {
  if (auto waiting = caller_still_waiting(request_.caller_gone, "the click"); !waiting) {
    return refuse(std::move(waiting).take_error());
  }
  if (auto moved = x11::move_pointer(connection, point.x, point.y); !moved) {
    return refuse(std::move(moved).take_error());
  }
  if (auto clicked = x11::click_button(connection, 1); !clicked) {
    return marked(std::move(clicked).take_error(), Delivery::kDeliveredUnverified);
  }
  return ok_status();
}

void PhysicalClick::summarize(const a11y::LiveTarget& target) {
  reply_.target = a11y::ActionTargetSummary{
      target.ref,     target.app_name,     target.pid,
      target.window.id, target.window.title, a11y::role_name(target.node.role),
      target.node.name, target.position, a11y::says_it_opens_something(target.node, target.stored)};
}

Result<PointerClickReply> PhysicalClick::run() {
  reply_.kind = a11y::ActionKind::kClick;
  reply_.route = "xtest:pointer";
  reply_.expectation = request_.expect;
  if (auto st = require_x11_session("click --headed"); !st) return refuse(std::move(st).take_error());
  auto connection = x11::Connection::open();
  if (!connection) return refuse(std::move(connection).take_error());

  auto first = resolve();
  if (!first) return std::move(first).take_error();
  target_ = std::move(first).value();
  if (request_.expected_fingerprint) {
    fingerprint_ = *request_.expected_fingerprint;
  } else if (target_->snapshot && target_->stored) {
    fingerprint_ = a11y::fingerprint_input_of(*target_->snapshot, *target_->stored);
    // A snapshot reads ids only where the rest of an identity is shared.
    if (!fingerprint_->identity.accessible_id_known && target_->node.accessible_id_known) {
      fingerprint_->identity.accessible_id = target_->node.accessible_id;
      fingerprint_->identity.accessible_id_known = true;
    }
  } else {
    fingerprint_ = a11y::FingerprintInput{a11y::identity_of(target_->node), target_->window.id,
                                          target_->pid, target_->node.bounds};
  }
  if (auto same = check_fingerprint(*target_); !same) return std::move(same).take_error();
  reply_.timings.resolve_ms = milliseconds_since(started_);

  const auto preflight_started = Clock::now();
  std::optional<a11y::ExpectationCheck> expectation;
  if (request_.expect) {
    expectation.emplace(observer_, *request_.expect, target_->window);
    if (auto baseline = expectation->before(deadline_); !baseline) {
      return refuse(std::move(baseline).take_error());
    }
  }
  ScreenPoint point;
  {
    std::lock_guard lock(physical_input_mutex());
    if (auto st = bring_forward(*connection); !st) return std::move(st).take_error();
    // Where the element is now, with its window in front: the last look before the click.
    auto now = resolve();
    if (!now) return std::move(now).take_error();
    target_ = std::move(now).value();
    if (auto same = check_fingerprint(*target_); !same) return std::move(same).take_error();
    auto found = point_on(*connection, *target_);
    if (!found) return std::move(found).take_error();
    point = *found;
    reply_.timings.preflight_ms = milliseconds_since(preflight_started);
    const auto deliver_started = Clock::now();
    if (auto st = click(*connection, point); !st) return std::move(st).take_error();
    reply_.timings.deliver_ms = milliseconds_since(deliver_started);
  }
  summarize(*target_);
  if (request_.strict) reply_.fingerprint = a11y::fingerprint_sha256(*fingerprint_);
  reply_.delivery = Delivery::kDeliveredUnverified;
  if (expectation) {
    const auto verify_started = Clock::now();
    reply_.expectation_result = expectation->after(deadline_);
    if (reply_.expectation_result->met) reply_.delivery = Delivery::kDeliveredVerified;
    reply_.timings.verify_ms = milliseconds_since(verify_started);
  }
  reply_.milliseconds = milliseconds_since(started_);
  return PointerClickReply{reply_, point, xid_};
}

}  // namespace

std::optional<ScreenPoint> click_point(const Bounds& element, bool window_relative,
                                       const Bounds& client_area) {
  if (element.width <= 0 || element.height <= 0) return std::nullopt;
  ScreenPoint point{element.x + element.width / 2, element.y + element.height / 2};
  if (window_relative) {
    point.x += client_area.x;
    point.y += client_area.y;
  }
  if (point.x < client_area.x || point.y < client_area.y ||
      point.x >= client_area.x + client_area.width || point.y >= client_area.y + client_area.height) {
    return std::nullopt;
  }
  return point;
}

Result<PointerClickReply> physical_click(a11y::Observer& observer, const a11y::ActionRequest& request,
                                         Deadline deadline) {
  PhysicalClick click(observer, request, deadline);
  return click.run();
}

}  // namespace companyos::desktop
