#include "a11y/wait.h"

#include <algorithm>
#include <set>
#include <utility>

#include <atspi/atspi.h>
#include <spdlog/spdlog.h>

#include "a11y/apps.h"
#include "a11y/policy.h"
#include "a11y/read/snapshot.h"
#include "a11y/read/window_id.h"
#include "a11y/ref.h"

namespace companyos::a11y {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Registering listeners and finding the bus are quick; a registry that does not answer
// within this costs the wait its events, not its deadline.
constexpr milliseconds kEventSetupBudget{1000};
// Events from apps whose name is not known yet are held for a check to name them; a flood
// from a stranger must not grow without bound.
constexpr std::size_t kMaxUnattributedEvents = 4096;
// Asking a new app its name: it answers once its main loop runs, within tens of
// milliseconds of joining the bus; one that takes longer is named by the next check.
constexpr milliseconds kNameBudget{250};
constexpr glong kShownValueChars = 200;

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::int64_t ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<milliseconds>(to - from).count();
}

Error invalid(std::string message, std::string suggestion) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), nlohmann::json::object(),
                    std::move(suggestion));
}

// A value as last_seen shows it: whole up to kShownValueChars characters, else cut there
// (at a character boundary) and marked with "…".
std::string shortened(const std::string& value) {
  if (g_utf8_strlen(value.c_str(), -1) <= kShownValueChars) return value;
  const GCharPtr head(g_utf8_substring(value.c_str(), 0, kShownValueChars));
  return std::string(head.get()) + "…";
}

std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::string describe(const WaitCondition& condition) {
  return std::visit(
      Overloaded{
          [](const WindowAppears& c) {
            return "a window titled " + in_quotes(c.title) + " of app " + c.app + " to appear";
          },
          [](const WindowClosed& c) {
            return "a window of app " + c.app + (c.title ? " titled " + in_quotes(*c.title) : "") +
                   " to close";
          },
          [](const TextAppears& c) {
            return "text " + in_quotes(c.text) + " to appear in app " + c.app;
          },
          [](const ElementPredicate& c) {
            switch (c.predicate) {
              case Predicate::kExists:
                return "element " + c.ref + " to exist";
              case Predicate::kGone:
                return "element " + c.ref + " to be gone";
              case Predicate::kValue:
                return "element " + c.ref + " to have the value " + in_quotes(c.value.value_or(""));
              case Predicate::kState:
                return "element " + c.ref + " to have the state " + c.value.value_or("");
            }
            return std::string();
          },
      },
      condition);
}

const std::string& app_of(const WaitCondition& condition) {
  static const std::string kNone;
  return std::visit(Overloaded{
                        [](const WindowAppears& c) -> const std::string& { return c.app; },
                        [](const WindowClosed& c) -> const std::string& { return c.app; },
                        [](const TextAppears& c) -> const std::string& { return c.app; },
                        [](const ElementPredicate&) -> const std::string& { return kNone; },
                    },
                    condition);
}

// The registry announces apps joining and leaving as children of the desktop root whose
// any_data is the app's own root; an app's own root children are its windows.
bool is_app_joined_or_left(const AtspiEvent& event) {
  return event.family == AtspiEvent::Family::kObject && event.member == "ChildrenChanged" &&
         event.path == kRootPath && event.object && event.object->path == kRootPath &&
         event.object->bus_name != event.sender;
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

std::string_view presence_name(ElementSeen::Presence presence) {
  switch (presence) {
    case ElementSeen::Presence::kOne:
      return "one";
    case ElementSeen::Presence::kNone:
      return "none";
    case ElementSeen::Presence::kSeveral:
      return "several";
    case ElementSeen::Presence::kWindowGone:
      return "window_gone";
    case ElementSeen::Presence::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace

// ---- conditions ---------------------------------------------------------------------

Result<Predicate> parse_predicate(std::string_view name) {
  if (name == "exists") return Predicate::kExists;
  if (name == "gone") return Predicate::kGone;
  if (name == "value") return Predicate::kValue;
  if (name == "state") return Predicate::kState;
  return invalid("unknown predicate " + in_quotes(name), "use exists, gone, value or state");
}

std::string_view predicate_name(Predicate predicate) {
  switch (predicate) {
    case Predicate::kExists:
      return "exists";
    case Predicate::kGone:
      return "gone";
    case Predicate::kValue:
      return "value";
    case Predicate::kState:
      return "state";
  }
  return "exists";
}

std::string_view condition_kind(const WaitCondition& condition) {
  return std::visit(Overloaded{
                        [](const WindowAppears&) { return std::string_view("window_appears"); },
                        [](const WindowClosed&) { return std::string_view("window_closed"); },
                        [](const TextAppears&) { return std::string_view("text_appears"); },
                        [](const ElementPredicate&) { return std::string_view("element"); },
                    },
                    condition);
}

nlohmann::json condition_to_json(const WaitCondition& condition) {
  nlohmann::json json = std::visit(
      Overloaded{
          [](const WindowAppears& c) {
            return nlohmann::json{{"app", c.app}, {"title", c.title}};
          },
          [](const WindowClosed& c) {
            return nlohmann::json{{"app", c.app},
                                  {"title", c.title ? nlohmann::json(*c.title) : nlohmann::json()}};
          },
          [](const TextAppears& c) {
            return nlohmann::json{{"app", c.app}, {"text", c.text}};
          },
          [](const ElementPredicate& c) {
            return nlohmann::json{{"ref", c.ref},
                                  {"predicate", predicate_name(c.predicate)},
                                  {"value", c.value ? nlohmann::json(*c.value) : nlohmann::json()}};
          },
      },
      condition);
  json["kind"] = condition_kind(condition);
  return json;
}

Status validate_condition(const WaitCondition& condition) {
  const std::string& app = app_of(condition);
  if (!std::holds_alternative<ElementPredicate>(condition)) {
    if (app.empty()) return invalid("the app name is empty", "name the app, as `apps` lists it");
    if (auto allowed = check_observation_allowed(app); !allowed) return allowed;
  }
  if (const auto* c = std::get_if<WindowAppears>(&condition); c && c->title.empty()) {
    return invalid("the window title is empty", "give the exact title to wait for");
  }
  if (const auto* c = std::get_if<WindowClosed>(&condition); c && c->title && c->title->empty()) {
    return invalid("the window title is empty", "leave the title out to wait for any window");
  }
  if (const auto* c = std::get_if<TextAppears>(&condition); c && c->text.empty()) {
    return invalid("the text to wait for is empty", "give at least one character of text");
  }
  if (const auto* c = std::get_if<ElementPredicate>(&condition)) {
    if (auto ref = parse_ref(c->ref); !ref) return std::move(ref).take_error();
    const bool takes_value = c->predicate == Predicate::kValue || c->predicate == Predicate::kState;
    if (takes_value && !c->value) {
      return invalid(
          "the " + std::string(predicate_name(c->predicate)) + " predicate needs a value",
          "add --value V");
    }
    if (!takes_value && c->value) {
      return invalid(
          "the " + std::string(predicate_name(c->predicate)) + " predicate takes no value",
          "drop --value, or use --predicate value");
    }
    if (c->predicate == Predicate::kState && !state_from_name(*c->value)) {
      return invalid("unknown state " + in_quotes(*c->value),
                     "use an AT-SPI state name as snapshots print them, e.g. checked, focused");
    }
  }
  return ok_status();
}

nlohmann::json wait_outcome_to_json(const WaitOutcome& outcome) {
  return {{"condition", outcome.condition},
          {"elapsed_ms", outcome.elapsed.count()},
          {"seen_by", outcome.seen_by},
          {"evidence", outcome.evidence},
          {"checks", outcome.checks},
          {"events", outcome.events},
          {"events_active", outcome.events_active}};
}

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
      options_(std::move(options)) {
  if (const auto* c = std::get_if<ElementPredicate>(&condition_);
      c && c->predicate == Predicate::kState && c->value) {
    state_ = state_from_name(*c->value);
  }
}

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
  if (std::holds_alternative<TextAppears>(condition_)) {
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
  if (std::holds_alternative<TextAppears>(condition_)) request_check(now);
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
  if (fail_if_fatal(seen.problem) || !seen.match) return;
  const TextMatch& match = *seen.match;
  conclude(check_source_,
           {{"window", {{"id", match.window.id}, {"title", match.window.title}}},
            {"ref", match.ref.empty() ? nlohmann::json() : nlohmann::json(match.ref)},
            {"role", role_name(match.role)},
            {"name", match.name},
            {"field", match.field}},
           now);
}

void WaitTracker::apply_element(const ElementSeen& seen, TimePoint now) {
  const auto& condition = std::get<ElementPredicate>(condition_);
  last_check_ = {{"presence", presence_name(seen.presence)}};
  const bool one = seen.presence == ElementSeen::Presence::kOne;
  if (one && condition.predicate == Predicate::kValue && !seen.value_withheld) {
    last_check_["value"] = seen.value ? nlohmann::json(shortened(*seen.value)) : nlohmann::json();
  }
  if (one && condition.predicate == Predicate::kState) {
    last_check_["states"] = state_names(seen.states);
  }
  if (seen.problem) last_check_["problem"] = error_summary(*seen.problem);
  if (fail_if_fatal(seen.problem)) return;

  nlohmann::json evidence = {{"ref", condition.ref}, {"presence", presence_name(seen.presence)}};
  switch (condition.predicate) {
    case Predicate::kGone:
      if (seen.presence == ElementSeen::Presence::kNone ||
          seen.presence == ElementSeen::Presence::kWindowGone) {
        conclude(check_source_, std::move(evidence), now);
      }
      return;
    case Predicate::kExists:
    case Predicate::kValue:
    case Predicate::kState:
      break;
  }
  if (seen.presence == ElementSeen::Presence::kWindowGone) {
    // Identity lives within one window, and a closed window never comes back.
    failure_ = seen.problem.value_or(make_error(ErrorCode::kStaleRef, "the ref's window is gone",
                                                {{"ref", condition.ref}, {"kind", "window_gone"}},
                                                "take a new snapshot and use its refs"));
    return;
  }
  if (!one) return;
  if (condition.predicate == Predicate::kExists) {
    conclude(check_source_, std::move(evidence), now);
  } else if (condition.predicate == Predicate::kValue) {
    if (seen.value_withheld) {
      failure_ = make_error(ErrorCode::kPolicyDenied, "the value of a password field is never read",
                            {{"ref", condition.ref}}, "wait for another element");
    } else if (seen.value && condition.value && *seen.value == *condition.value) {
      evidence["value"] = *seen.value;
      conclude(check_source_, std::move(evidence), now);
    }
  } else if (state_ && has_state(seen.states, *state_)) {
    evidence["state"] = *condition.value;
    evidence["states"] = state_names(seen.states);
    conclude(check_source_, std::move(evidence), now);
  }
}

void WaitTracker::conclude_windows(const std::string& seen_by, TimePoint at) {
  auto describe_window = [this](const TrackedWindow& window) {
    const auto app = app_names_.find(window.bus_name);
    nlohmann::json json = {
        {"id", window_id(window.bus_name, window.path)},
        {"title", window.title ? nlohmann::json(*window.title) : nlohmann::json()},
        {"app", app != app_names_.end() ? app->second : std::string()},
        {"bus_name", window.bus_name},
        {"pid", window.pid ? nlohmann::json(*window.pid) : nlohmann::json()}};
    return json;
  };
  if (const auto* c = std::get_if<WindowAppears>(&condition_)) {
    for (const auto& [key, window] : windows_) {
      if (window.gone || window.seen_by.empty() || window.title != c->title) continue;
      conclude(seen_by, {{"window", describe_window(window)}, {"seen_open_by", window.seen_by}},
               at);
      return;
    }
  } else if (const auto* c = std::get_if<WindowClosed>(&condition_)) {
    for (const auto& [key, window] : windows_) {
      if (!window.gone || !is_titled(window)) continue;
      if (c->title && window.title != *c->title) continue;
      conclude(seen_by,
               {{"window", describe_window(window)},
                {"seen_open_by", window.seen_by},
                {"gone_by", window.gone_by},
                {"gone_at_ms", ms_between(started_, window.gone_at)}},
               at);
      return;
    }
  }
}

void WaitTracker::conclude(std::string seen_by, nlohmann::json evidence, TimePoint at) {
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

// ---- running a wait -----------------------------------------------------------------

namespace {

// A fresh main context as the thread's default while it lives: the wait's event signals
// and timers are dispatched only here, so nothing else on the thread sees them.
class ThreadContext {
 public:
  ThreadContext() : context_(g_main_context_new()) {
    g_main_context_push_thread_default(context_.get());
  }
  ~ThreadContext() { g_main_context_pop_thread_default(context_.get()); }
  ThreadContext(const ThreadContext&) = delete;
  ThreadContext& operator=(const ThreadContext&) = delete;
  GMainContext* get() const { return context_.get(); }

 private:
  MainContextPtr context_;
};

// Iterates the context until wake, or until something was dispatched (an event came).
void sleep_until(GMainContext* context, Clock::time_point wake) {
  const auto remaining = std::chrono::ceil<milliseconds>(wake - Clock::now());
  if (remaining.count() <= 0) {
    while (g_main_context_iteration(context, FALSE)) {
    }
    return;
  }
  SourcePtr timer(g_timeout_source_new(static_cast<guint>(remaining.count())));
  g_source_set_callback(
      timer.get(), [](gpointer) -> gboolean { return G_SOURCE_REMOVE; }, nullptr, nullptr);
  g_source_attach(timer.get(), context);
  g_main_context_iteration(context, TRUE);
}

WindowsSeen check_windows(Observer& observer, const std::string& app, Deadline deadline) {
  WindowsSeen seen;
  auto windows = observer.windows(app, deadline);
  if (windows) {
    seen.app_running = true;
    seen.windows = std::move(windows).value();
  } else if (windows.error().code == ErrorCode::kAppNotFound) {
    seen.app_running = false;
  } else {
    seen.answered = false;
    seen.app_running = true;
    seen.problem = std::move(windows).take_error();
  }
  return seen;
}

TextSeen check_text(Observer& observer, const TextAppears& condition, Deadline deadline) {
  TextSeen seen;
  const WindowsSeen listed = check_windows(observer, condition.app, deadline);
  seen.answered = listed.answered;
  seen.app_running = listed.app_running;
  seen.problem = listed.problem;
  for (const WindowInfo& window : listed.windows) {
    auto read = read_window(observer.bus(), window, deadline);
    if (!read) {
      if (read.error().code == ErrorCode::kWindowNotFound) continue;  // closed meanwhile
      seen.answered = false;
      seen.problem = std::move(read).take_error();
      continue;
    }
    ++seen.windows_read;
    seen.nodes_read += read->nodes.size();
    auto match = find_text(*read, condition.text);
    if (!match) continue;
    // Stored like a snapshot, so the caller can act on the element it found.
    auto taken = std::make_shared<Snapshot>(std::move(read).value());
    taken->id = observer.store().next_id();
    match->ref = format_ref(taken->id, match->index);
    observer.store().put(std::move(taken));
    seen.match = std::move(match);
    break;
  }
  return seen;
}

void classify_element_error(Error error, ElementSeen& seen) {
  const auto kind = error.details.value("kind", std::string());
  if (error.code == ErrorCode::kStaleRef && kind == "saved_ref_absent") {
    seen.presence = ElementSeen::Presence::kNone;
  } else if (error.code == ErrorCode::kStaleRef && kind == "window_gone") {
    seen.presence = ElementSeen::Presence::kWindowGone;
    seen.problem = std::move(error);
  } else if (error.code == ErrorCode::kAmbiguousTarget) {
    seen.presence = ElementSeen::Presence::kSeveral;
  } else {
    seen.presence = ElementSeen::Presence::kUnknown;
    seen.problem = std::move(error);
  }
}

ElementSeen check_element(Observer& observer, const ElementPredicate& condition,
                          Deadline deadline) {
  ElementSeen seen;
  if (condition.predicate == Predicate::kExists || condition.predicate == Predicate::kGone) {
    auto resolved = observer.resolve(condition.ref, deadline);
    if (resolved) {
      seen.presence = ElementSeen::Presence::kOne;
    } else {
      classify_element_error(std::move(resolved).take_error(), seen);
    }
    return seen;
  }
  auto details = observer.get(condition.ref, deadline);
  if (!details) {
    classify_element_error(std::move(details).take_error(), seen);
    return seen;
  }
  seen.presence = ElementSeen::Presence::kOne;
  seen.value = details->node.value;
  seen.value_withheld = details->node.value_withheld;
  seen.states = details->node.states;
  return seen;
}

// The app's name, asked directly: an app that opens and closes a window quickly may be gone
// before a check lists it, and its events count only once its name is known.
std::optional<std::string> ask_app_name(Observer& observer, const std::string& bus_name,
                                        Deadline deadline) {
  CallScope scope(std::min(deadline, Clock::now() + kNameBudget));
  auto bus = observer.bus().bus_channel(scope);
  if (!bus) return std::nullopt;
  std::optional<std::string> name;
  scope.call(Channel{bus->connection, bus_name, bus->router}, kRootPath, kPropertiesInterface,
             "Get", g_variant_new("(ss)", kAccessibleInterface, "Name"),
             [&name](GVariant* reply, const GError*) {
               if (reply == nullptr || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)"))) return;
               GVariant* raw = nullptr;
               g_variant_get(reply, "(v)", &raw);
               const VariantPtr value(raw);
               if (g_variant_is_of_type(value.get(), G_VARIANT_TYPE_STRING)) {
                 name = g_variant_get_string(value.get(), nullptr);
               }
             });
  scope.wait();
  if (name && !name->empty()) observer.bus().remember_app_name(bus_name, *name);
  return name;
}

// The bus name of the ref's app, once the ref is known to exist in the store and to be
// allowed: a password field's value is refused before anything is read.
Result<std::string> element_app(Observer& observer, const ElementPredicate& condition) {
  auto ref = parse_ref(condition.ref);
  if (!ref) return std::move(ref).take_error();
  auto stored = observer.store().lookup(*ref);
  if (!stored) return std::move(stored).take_error();
  if (auto allowed = check_observation_allowed(stored->snapshot->app_name); !allowed) {
    return std::move(allowed).take_error();
  }
  if (condition.predicate == Predicate::kValue && is_password_role(stored->node->role)) {
    return make_error(ErrorCode::kPolicyDenied, "the value of a password field is never read",
                      {{"ref", condition.ref}}, "wait for another element");
  }
  return stored->snapshot->bus_name;
}

// One run of wait_for: the event plumbing, the checks, and the loop between them.
class WaitRun {
 public:
  WaitRun(Observer& observer, const WaitCondition& condition, Deadline deadline,
          const WaitOptions& options, WaitTracker& tracker)
      : observer_(observer),
        condition_(condition),
        deadline_(deadline),
        options_(options),
        tracker_(tracker) {}

  // The first look comes before events are on. It names the apps it lists, and an event
  // counts only once its app is named: an app that closed its window and left the bus
  // while a first look ran after events were on could never be named, and its closing
  // would go unseen. What changes between that look and the events is caught by a look
  // right after them.
  Result<WaitOutcome> run() {
    check();
    if (!tracker_.done()) {
      if (options_.events) start_events();
      report_baseline();
    }
    while (!tracker_.done()) {
      deliver_events();
      if (tracker_.done()) break;
      if (options_.stop.stop_requested()) {
        return make_error(ErrorCode::kInternal, "the wait was cancelled: the daemon is stopping",
                          {{"reason", "cancelled"}}, "repeat the wait once the daemon runs again",
                          Retry::kSafe);
      }
      const auto now = Clock::now();
      if (now >= deadline_) return tracker_.timeout_error(now);
      if (tracker_.check_due(now)) {
        check();
        continue;
      }
      sleep_until(context_.get(), tracker_.next_wake(now));
    }
    if (tracker_.failure()) return *tracker_.failure();
    return *tracker_.outcome();
  }

 private:
  void start_events() {
    Channel bus;
    {
      CallScope scope(std::min(deadline_, Clock::now() + kEventSetupBudget));
      if (auto channel = observer_.bus().bus_channel(scope)) bus = *channel;
    }
    if (!bus.connection) return;  // the first check reports the missing bus
    // Subscribed before registering, so no event the registration causes is missed.
    subscription_.emplace(bus.connection,
                          [this](AtspiEvent event) { inbox_.push_back(std::move(event)); });
    CallScope scope(std::min(deadline_, Clock::now() + kEventSetupBudget));
    registration_.emplace(EventRegistration::acquire(scope, bus));
    tracker_.events_started(registration_->active(), Clock::now());
  }

  // Hands the events dispatched so far to the tracker, naming their apps first. Naming
  // runs on its own CallScope context, so no event is dispatched into inbox_ meanwhile.
  void deliver_events() {
    for (const AtspiEvent& event : inbox_) {
      if (!is_app_joined_or_left(event)) {
        name_app(event.sender);
      } else if (event.detail.starts_with("add")) {
        name_app(event.object->bus_name);  // asked now, while it surely still runs
      }
      tracker_.on_event(event, event.received);
      if (tracker_.done()) break;
    }
    inbox_.clear();
  }

  void name_app(const std::string& bus_name) {
    if (!tracker_.needs_name(bus_name)) return;
    std::string name = observer_.bus().known_app_name(bus_name);
    if (name.empty() && asked_.insert(bus_name).second) {
      name = ask_app_name(observer_, bus_name, deadline_).value_or("");
    }
    tracker_.learn_app_name(bus_name, name);
  }

  void check() {
    tracker_.begin_check(Clock::now());
    const Deadline until = std::min(deadline_, Clock::now() + options_.check_budget);
    CheckResult result = run_check(until);
    // Held-back events predate this check: name their senders (the check listed the apps)
    // so they are applied before the check's own result.
    for (const std::string& sender : tracker_.unattributed_senders()) {
      tracker_.learn_app_name(sender, observer_.bus().known_app_name(sender));
    }
    tracker_.end_check(std::move(result), Clock::now());
  }

  CheckResult run_check(Deadline until) {
    try {
      return std::visit(
          Overloaded{
              [&](const WindowAppears& c) -> CheckResult {
                return check_windows(observer_, c.app, until);
              },
              [&](const WindowClosed& c) -> CheckResult {
                return check_windows(observer_, c.app, until);
              },
              [&](const TextAppears& c) -> CheckResult { return check_text(observer_, c, until); },
              [&](const ElementPredicate& c) -> CheckResult {
                return check_element(observer_, c, until);
              },
          },
          condition_);
    } catch (const std::exception& e) {
      // A failed check is one look lost, not the wait: the next one may succeed.
      spdlog::error("a11y: a wait's check failed: {}", e.what());
      return failed_check(
          make_error(ErrorCode::kInternal, std::string("check failed: ") + e.what()));
    }
  }

  CheckResult failed_check(Error problem) const {
    if (std::holds_alternative<ElementPredicate>(condition_)) {
      ElementSeen seen;
      seen.problem = std::move(problem);
      return seen;
    }
    if (std::holds_alternative<TextAppears>(condition_)) {
      TextSeen seen;
      seen.answered = false;
      seen.app_running = true;
      seen.problem = std::move(problem);
      return seen;
    }
    WindowsSeen seen;
    seen.answered = false;
    seen.app_running = true;
    seen.problem = std::move(problem);
    return seen;
  }

  void report_baseline() const {
    if (!options_.on_baseline) return;
    try {
      options_.on_baseline();
    } catch (...) {
      spdlog::error("a11y: a wait's on_baseline callback threw");
    }
  }

  Observer& observer_;
  const WaitCondition& condition_;
  const Deadline deadline_;
  const WaitOptions& options_;
  WaitTracker& tracker_;
  std::set<std::string> asked_;  // apps asked for their name already
  // Torn down in reverse: the registration first, then the subscription (which needs the
  // context still the thread's default), then the context; the inbox outlives them all.
  std::vector<AtspiEvent> inbox_;
  ThreadContext context_;
  std::optional<EventSubscription> subscription_;
  std::optional<EventRegistration> registration_;
};

}  // namespace

Result<WaitOutcome> wait_for(Observer& observer, const WaitCondition& condition, Deadline deadline,
                             const WaitOptions& options) {
  const auto started = Clock::now();
  if (auto valid = validate_condition(condition); !valid) return std::move(valid).take_error();
  WaitTracker tracker(condition, started, deadline, options);
  if (const auto* element = std::get_if<ElementPredicate>(&condition)) {
    auto app = element_app(observer, *element);
    if (!app) return std::move(app).take_error();
    tracker.set_element_bus_name(*app);
  }
  return WaitRun(observer, condition, deadline, options, tracker).run();
}

}  // namespace companyos::a11y
