#include "a11y/wait/tracker.h"

#include <algorithm>
#include <set>
#include <utility>

#include "a11y/apps.h"
#include "a11y/bus.h"
#include "core/glib_handles.h"
#include "a11y/read/window_id.h"
#include "a11y/vocabulary.h"
#include "a11y/wait/conditions.h"

namespace companyos::a11y {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Events from apps whose name is not known yet are held for a check to name them; a flood
// from a stranger must not grow without bound.
constexpr std::size_t kMaxUnattributedEvents = 4096;
constexpr glong kShownValueChars = 200;

std::int64_t ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<milliseconds>(to - from).count();
}

// A value as last_seen shows it: whole up to kShownValueChars characters, else cut there
// (at a character boundary) and marked with "…".
std::string shortened(const std::string& value) {
  if (g_utf8_strlen(value.c_str(), -1) <= kShownValueChars) return value;
  const GCharPtr head(g_utf8_substring(value.c_str(), 0, kShownValueChars));
  return std::string(head.get()) + "…";
}

// Seen open, with a title: a window a person would call one (see apply_window_event).
bool is_titled(const TrackedWindow& window) {
  return !window.seen_by.empty() && window.title && !window.title->empty();
}

std::string window_key(std::string_view bus_name, std::string_view path) {
  std::string key(bus_name);
  key.push_back('|');
  key += path;
  return key;
}

nlohmann::json error_summary(const Error& error) {
  nlohmann::json summary = {{"code", to_string(error.code)}, {"message", error.message}};
  if (error.code == ErrorCode::kAppUnresponsive) summary["details"] = error.details;
  return summary;
}

// Problems that no amount of waiting fixes.
bool is_fatal(const Error& error, bool at_baseline) {
  switch (error.code) {
    case ErrorCode::kInvalidArgs:
    case ErrorCode::kPolicyDenied:
    case ErrorCode::kAmbiguousTarget:  // a selector's scope twice in a window (twins of a ref are no error)
      return true;
    case ErrorCode::kBusUnavailable:
      return at_baseline;
    case ErrorCode::kStaleRef: {
      const auto kind = error.details.value("kind", std::string());
      return kind == "snapshot_unknown" || kind == "element_unknown";
    }
    default:
      return false;
  }
}

std::string_view presence_name(const std::optional<ElementSighting>& sighting) {
  if (!sighting) return "unknown";
  switch (sighting->presence) {
    case ElementSighting::Presence::kOne:
      return "one";
    case ElementSighting::Presence::kNone:
      return "none";
    case ElementSighting::Presence::kSeveral:
      return "several";
    case ElementSighting::Presence::kWindowGone:
      return "window_gone";
  }
  return "unknown";
}

}  // namespace

// ---- evaluation ---------------------------------------------------------------------

std::optional<TextMatch> find_text(const Snapshot& snapshot, std::string_view text) {
  if (text.empty()) return std::nullopt;
  for (const Node& node : snapshot.nodes) {
    std::string field;
    if (node.name.find(text) != std::string::npos) {
      field = "name";
    } else if (node.value && !node.value_withheld && !is_password_role(node.role) &&
               node.value->find(text) != std::string::npos) {
      field = "value";
    } else {
      continue;
    }
    TextMatch match;
    match.window = snapshot.window;
    match.index = node.ref;
    match.role = node.role;
    match.name = node.name;
    match.field = std::move(field);
    return match;
  }
  return std::nullopt;
}

WaitTracker::WaitTracker(WaitCondition condition, TimePoint started, Deadline deadline,
                         WaitOptions options)
    : condition_(std::move(condition)),
      started_(started),
      deadline_(deadline),
      options_(std::move(options)) {}

bool WaitTracker::is_app_scoped() const {
  return !std::holds_alternative<ElementPredicate>(condition_);
}

void WaitTracker::events_started(bool active, TimePoint now) {
  events_active_ = active;
  request_check(now);
}

void WaitTracker::request_check(TimePoint now) {
  if (!check_requested_at_) check_requested_at_ = now;
}

TrackedWindow& WaitTracker::track(const std::string& bus_name, const std::string& path) {
  auto [it, added] = windows_.try_emplace(window_key(bus_name, path));
  if (added) {
    it->second.bus_name = bus_name;
    it->second.path = path;
  }
  return it->second;
}

void WaitTracker::on_event(const AtspiEvent& event, TimePoint now) {
  if (done()) return;
  ++events_;
  if (is_app_joined_or_left(event)) {
    apply_app_event(event, now);
    return;
  }
  if (!is_app_scoped()) {
    if (event.sender == element_bus_name_) request_check(now);
    return;
  }
  const auto name = app_names_.find(event.sender);
  if (name == app_names_.end()) {
    if (unattributed_.size() >= kMaxUnattributedEvents) unattributed_.erase(unattributed_.begin());
    unattributed_.push_back(event);
    request_check(now);  // a check lists the apps, which names the sender
    return;
  }
  if (app_name_matches(name->second, app_of(condition_))) apply_event(event, now);
}

bool WaitTracker::needs_name(const std::string& bus_name) const {
  return is_app_scoped() && !app_names_.contains(bus_name);
}

void WaitTracker::learn_app_name(const std::string& bus_name, const std::string& app_name) {
  if (bus_name.empty() || app_name.empty()) return;
  app_names_[bus_name] = app_name;
  std::vector<AtspiEvent> held;
  std::erase_if(unattributed_, [&](AtspiEvent& event) {
    if (event.sender != bus_name) return false;
    held.push_back(std::move(event));
    return true;
  });
  if (!app_name_matches(app_name, app_of(condition_))) return;
  for (const AtspiEvent& event : held) {
    if (done()) return;
    apply_event(event, event.received);
  }
}

std::vector<std::string> WaitTracker::unattributed_senders() const {
  std::set<std::string> senders;
  for (const AtspiEvent& event : unattributed_) senders.insert(event.sender);
  return {senders.begin(), senders.end()};
}

void WaitTracker::apply_event(const AtspiEvent& event, TimePoint now) {
  // Text, surfaces and elements change without window events: any event of the app may be one.
  if (std::holds_alternative<TextAppears>(condition_) || std::holds_alternative<SurfaceOpens>(condition_) ||
      std::holds_alternative<SelectedElement>(condition_)) {
    request_check(now);
    return;
  }
  apply_window_event(event, now);
}

void WaitTracker::apply_app_event(const AtspiEvent& event, TimePoint now) {
  const std::string& app_bus_name = event.object->bus_name;
  if (event.detail.starts_with("add")) {
    if (is_app_scoped()) request_check(now);
    return;
  }
  if (!event.detail.starts_with("remove")) return;
  if (!is_app_scoped()) {
    if (app_bus_name == element_bus_name_) request_check(now);
    return;
  }
  bool closed_any = false;
  for (auto& [key, window] : windows_) {
    if (window.bus_name != app_bus_name || window.seen_by.empty() || window.gone) continue;
    window.gone = true;
    window.gone_by = "app_exit";
    window.gone_at = event.received;
    closed_any = true;
  }
  if (closed_any) conclude_windows("event", event.received);
  // Whether the app is still on the bus (another instance may be) is for a check to say.
  if (!std::holds_alternative<WindowClosed>(condition_)) request_check(now);
}

// Window bookkeeping from the target app's events. Any window event means the window
// existed during the wait, and Destroy that it is gone. Popups (menus, combo lists) are
// windows too, with Create, Activate and Destroy of their own; they have no title, and
// only titled windows count (conclude_windows), so a closing menu is never a closing window.
void WaitTracker::apply_window_event(const AtspiEvent& event, TimePoint now) {
  auto tracked = windows_.find(window_key(event.sender, event.path));
  const bool known = tracked != windows_.end() && !tracked->second.seen_by.empty();

  if (event.family == AtspiEvent::Family::kWindow) {
    const bool destroyed = event.member == "Destroy";
    if (!destroyed && event.member != "Create" && event.member != "Activate" &&
        event.member != "Deactivate") {
      request_check(now);  // minimized, restored, …: the listing decides
      return;
    }
    TrackedWindow& window = track(event.sender, event.path);
    if (window.gone) return;
    if (window.seen_by.empty()) window.seen_by = "event";
    // Some toolkits send these with an empty title: the one seen last stays.
    if (event.text && !event.text->empty()) window.title = *event.text;
    if (destroyed) {
      window.gone = true;
      window.gone_by = "event";
      window.gone_at = event.received;
    }
    conclude_windows("event", event.received);
    return;
  }

  if (event.member == "ChildrenChanged" && event.path == kRootPath) {
    if (event.detail.starts_with("add")) {
      request_check(now);
    } else if (event.detail.starts_with("remove") && event.object) {
      auto child = windows_.find(window_key(event.sender, event.object->path));
      if (child == windows_.end() || child->second.seen_by.empty() || child->second.gone) return;
      child->second.gone = true;
      child->second.gone_by = "event";
      child->second.gone_at = event.received;
      conclude_windows("event", event.received);
    }
    return;
  }
  if (!known) return;
  if (event.member == "StateChanged" && (event.detail == "visible" || event.detail == "showing")) {
    request_check(now);  // hidden or shown again: the listing decides
  } else if (event.member == "PropertyChange" && event.detail == "accessible-name" && event.text) {
    tracked->second.title = *event.text;
    conclude_windows("event", event.received);
  }
}

void WaitTracker::begin_check(TimePoint now) {
  in_check_ = true;
  check_source_ = !baseline_done_ ? "start" : check_requested_at_ ? "event" : "poll";
  check_requested_at_.reset();
  if (check_source_ == "event") last_event_check_start_ = now;
  ++checks_;
}

void WaitTracker::end_check(CheckResult result, TimePoint now) {
  in_check_ = false;
  last_check_end_ = now;
  last_check_at_ = now;
  std::visit(Overloaded{
                 [&](const WindowsSeen& seen) { apply_windows(seen, now); },
                 [&](const TextSeen& seen) { apply_text(seen, now); },
                 [&](const SurfaceSeen& seen) { apply_surface(seen, now); },
                 [&](const ElementSeen& seen) { apply_element(seen, now); },
             },
             result);
  baseline_done_ = true;
}

bool WaitTracker::fail_if_fatal(const std::optional<Error>& problem) {
  if (!problem || !is_fatal(*problem, !baseline_done_)) return false;
  failure_ = *problem;
  return true;
}

bool WaitTracker::fail_if_app_left(bool answered, bool app_running, TimePoint now) {
  if (!answered) return false;
  if (app_running) {
    app_seen_running_ = true;
    return false;
  }
  if (!app_seen_running_ || std::holds_alternative<WindowClosed>(condition_)) return false;
  const std::string& app = app_of(condition_);
  failure_ = make_error(ErrorCode::kAppNotFound,
                        "app " + app + " left the accessibility bus during the wait",
                        {{"app", app}, {"reason", "app_left_bus"},
                         {"elapsed_ms", ms_between(started_, now)}, {"last_seen", last_seen()}},
                        "the app exited or crashed; start it again, then repeat the wait");
  return true;
}

void WaitTracker::apply_windows(const WindowsSeen& seen, TimePoint now) {
  auto listed = nlohmann::json::array();
  for (const WindowInfo& window : seen.windows) {
    listed.push_back({{"id", window.id}, {"title", window.title}});
  }
  last_check_ = {
      {"app_running", seen.app_running}, {"answered", seen.answered}, {"windows", listed}};
  if (seen.problem) last_check_["problem"] = error_summary(*seen.problem);
  if (fail_if_fatal(seen.problem)) return;
  // An incomplete listing proves nothing about what is absent.
  if (!seen.answered) return;
  if (fail_if_app_left(seen.answered, seen.app_running, now)) return;

  std::set<std::string> present;
  for (const WindowInfo& info : seen.windows) {
    TrackedWindow& window = track(info.bus_name, info.path);
    present.insert(window_key(info.bus_name, info.path));
    if (window.gone) continue;
    if (window.seen_by.empty()) window.seen_by = check_source_;
    window.title = info.title;
    window.pid = info.pid;
    if (!info.app_name.empty() && needs_name(info.bus_name)) {
      learn_app_name(info.bus_name, info.app_name);
    }
  }
  for (auto& [key, window] : windows_) {
    if (window.seen_by.empty() || window.gone || present.contains(key)) continue;
    window.gone = true;
    window.gone_by = check_source_;
    window.gone_at = now;
  }
  conclude_windows(check_source_, now);
}

void WaitTracker::apply_text(const TextSeen& seen, TimePoint now) {
  last_check_ = {{"app_running", seen.app_running},
                 {"answered", seen.answered},
                 {"windows_read", seen.windows_read},
                 {"elements_read", seen.nodes_read}};
  if (seen.problem) last_check_["problem"] = error_summary(*seen.problem);
  if (fail_if_fatal(seen.problem) || fail_if_app_left(seen.answered, seen.app_running, now) ||
      !seen.match) {
    return;
  }
  const TextMatch& match = *seen.match;
  conclude(check_source_,
           TextAppearedEvidence{.window_id = match.window.id,
                                .window_title = match.window.title,
                                .ref = match.ref,
                                .role = std::string(role_name(match.role)),
                                .name = match.name,
                                .field = match.field},
           now);
}

void WaitTracker::apply_surface(const SurfaceSeen& seen, TimePoint now) {
  last_check_ = {{"app_running", seen.app_running},
                 {"answered", seen.answered},
                 {"windows_read", seen.windows_read},
                 {"surfaces_open", seen.surfaces_open}};
  if (seen.problem) last_check_["problem"] = error_summary(*seen.problem);
  if (fail_if_fatal(seen.problem) || fail_if_app_left(seen.answered, seen.app_running, now) ||
      !seen.match) {
    return;
  }
  conclude(check_source_, *seen.match, now);
}

void WaitTracker::apply_element(const ElementSeen& seen, TimePoint now) {
  // The same judgement for an element named by a ref and one named by a selector; only
  // what the naming means differs (a11y/predicate.h, NamedBy).
  const auto* by_ref = std::get_if<ElementPredicate>(&condition_);
  const auto* by_selector = std::get_if<SelectedElement>(&condition_);
  const Predicate predicate = by_ref ? by_ref->predicate : by_selector->predicate;
  const std::optional<std::string>& value = by_ref ? by_ref->value : by_selector->value;
  last_check_ = {{"presence", presence_name(seen.sighting)}};
  const bool one = seen.sighting && seen.sighting->presence == ElementSighting::Presence::kOne;
  if (one && predicate == Predicate::kValue && !seen.sighting->value_withheld) {
    last_check_["value"] =
        seen.sighting->value ? nlohmann::json(shortened(*seen.sighting->value)) : nlohmann::json();
  }
  if (one && predicate == Predicate::kState) last_check_["states"] = state_names(seen.sighting->states);
  if (seen.problem) last_check_["problem"] = error_summary(*seen.problem);
  if (fail_if_fatal(seen.problem)) return;
  if (!seen.sighting) return;

  const ElementVerdict verdict = judge_element(predicate, value, *seen.sighting, by_ref ? NamedBy::kRef : NamedBy::kSelector,
                                               by_ref ? by_ref->ref : describe(ActionTarget{by_selector->selector}));
  switch (verdict.kind) {
    case ElementVerdict::Kind::kNotYet:
      return;
    case ElementVerdict::Kind::kRefused: {
      // A resolution's own STALE_REF says more than the judgement's.
      Error error = verdict.refusal->code == ErrorCode::kStaleRef && seen.problem ? *seen.problem : *verdict.refusal;
      if (by_ref && !error.details.contains("ref")) error.details["ref"] = by_ref->ref;
      failure_ = std::move(error);
      return;
    }
    case ElementVerdict::Kind::kHolds:
      break;
  }
  ElementEvidence evidence{.ref = by_ref ? by_ref->ref : seen.ref, .presence = std::string(presence_name(seen.sighting))};
  if (predicate == Predicate::kValue) evidence.value = seen.sighting->value;
  if (predicate == Predicate::kState) {
    evidence.state = *value;
    evidence.states = state_names(seen.sighting->states);
  }
  conclude(check_source_, std::move(evidence), now);
}

void WaitTracker::conclude_windows(const std::string& seen_by, TimePoint at) {
  auto describe_window = [this](const TrackedWindow& window) {
    const auto app = app_names_.find(window.bus_name);
    return WaitWindow{.id = window_id(window.bus_name, window.path),
                      .title = window.title,
                      .app = app != app_names_.end() ? app->second : std::string(),
                      .bus_name = window.bus_name,
                      .pid = window.pid};
  };
  if (const auto* c = std::get_if<WindowAppears>(&condition_)) {
    for (const auto& [key, window] : windows_) {
      if (window.gone || window.seen_by.empty() || window.title != c->title) continue;
      conclude(seen_by,
               WindowAppearedEvidence{.window = describe_window(window),
                                      .seen_open_by = window.seen_by},
               at);
      return;
    }
  } else if (const auto* c = std::get_if<WindowClosed>(&condition_)) {
    for (const auto& [key, window] : windows_) {
      if (!window.gone || !is_titled(window)) continue;
      if (c->title && window.title != *c->title) continue;
      conclude(seen_by,
               WindowClosedEvidence{.window = describe_window(window),
                                    .seen_open_by = window.seen_by,
                                    .gone_by = window.gone_by,
                                    .gone_at_ms = ms_between(started_, window.gone_at)},
               at);
      return;
    }
  }
}

void WaitTracker::conclude(std::string seen_by, WaitEvidence evidence, TimePoint at) {
  if (done()) return;
  WaitOutcome outcome;
  outcome.condition = condition_kind(condition_);
  outcome.elapsed = std::chrono::duration_cast<milliseconds>(std::max(at, started_) - started_);
  outcome.seen_by = std::move(seen_by);
  outcome.evidence = std::move(evidence);
  outcome.checks = checks_;
  outcome.events = events_;
  outcome.events_active = events_active_;
  outcome_ = std::move(outcome);
}

WaitTracker::TimePoint WaitTracker::next_check_at() const {
  if (!baseline_done_) return started_;
  TimePoint next = last_check_end_ + options_.poll_interval;
  if (check_requested_at_) {
    next = std::min(next, std::max(*check_requested_at_ + options_.event_settle,
                                   last_event_check_start_ + options_.min_check_gap));
  }
  return next;
}

bool WaitTracker::check_due(TimePoint now) const {
  return !in_check_ && !done() && now >= next_check_at();
}

WaitTracker::TimePoint WaitTracker::next_wake(TimePoint now) const {
  return std::max(now, std::min(deadline_, next_check_at()));
}

nlohmann::json WaitTracker::last_seen() const {
  nlohmann::json seen = last_check_.is_object() ? last_check_ : nlohmann::json::object();
  seen["checks"] = checks_;
  seen["events"] = events_;
  seen["events_active"] = events_active_;
  seen["at_ms"] =
      last_check_at_ ? nlohmann::json(ms_between(started_, *last_check_at_)) : nlohmann::json();
  if (seen.contains("problem") &&
      seen["problem"]["code"] == to_string(ErrorCode::kAppUnresponsive)) {
    seen["unresponsive"] = seen["problem"]["details"];
  }
  if (std::holds_alternative<WindowClosed>(condition_) ||
      std::holds_alternative<WindowAppears>(condition_)) {
    auto tracked = nlohmann::json::array();
    for (const auto& [key, window] : windows_) {
      if (!is_titled(window)) continue;
      tracked.push_back(
          {{"id", window_id(window.bus_name, window.path)},
           {"title", window.title ? nlohmann::json(*window.title) : nlohmann::json()},
           {"seen_open_by", window.seen_by},
           {"gone_by", window.gone ? nlohmann::json(window.gone_by) : nlohmann::json()}});
    }
    seen["windows_tracked"] = std::move(tracked);
  }
  if (!unattributed_.empty()) seen["events_from_unnamed_apps"] = unattributed_.size();
  return seen;
}

Error WaitTracker::timeout_error(TimePoint now) const {
  const auto waited = ms_between(started_, now);
  nlohmann::json seen = last_seen();
  std::string suggestion = "wait longer (a larger timeout), or check the condition";
  if (seen.contains("unresponsive")) {
    suggestion = "the app did not answer during the wait; it may be busy or hung";
  } else if (seen.value("app_running", true) == false) {
    suggestion = "no app named " + app_of(condition_) + " is running; start it or check the name";
  } else if (std::holds_alternative<WindowClosed>(condition_) && seen["windows_tracked"].empty()) {
    suggestion = "no window of the app was open during the wait, so none could close";
  }
  return make_error(
      ErrorCode::kTimeout,
      "gave up after " + std::to_string(waited) + " ms waiting for " + describe(condition_),
      {{"condition", condition_to_json(condition_)},
       {"waited_ms", waited},
       {"last_seen", std::move(seen)}},
      std::move(suggestion), Retry::kSafe);
}

}  // namespace companyos::a11y
