// Waits for a condition on the desktop: a window appears or closes, a text appears, or an
// element exists / is gone / has a value / has a state. A wait is a synchronous call on the
// caller's thread bounded by its deadline, like the Observer's calls: it returns the outcome
// as soon as the condition holds, or TIMEOUT at the deadline with what it saw last.
//
// How it sees changes: it subscribes to AT-SPI event signals (see wait/events.h) on a private
// main context, then takes a baseline check, and re-checks after each relevant event
// (settled for a moment so a burst costs one check) and on a polling tick as a safety net
// for what emits no event. Window events are bookkept as they come, so a window that
// opens and closes between two checks still counts for WindowClosed.
//
// Errors: INVALID_ARGS for a malformed condition, POLICY_DENIED for password managers and
// for a value wait on a password field, STALE_REF for a ref that is unknown or whose window
// has closed (unless waiting for it to be gone), BUS_UNAVAILABLE when the first check finds
// no accessibility bus. An app that stops answering never ends a wait early: its checks
// are cut at WaitOptions::check_budget, the wait goes on, and at the deadline the result is
// TIMEOUT (never APP_UNRESPONSIVE) with details.last_seen.unresponsive naming the app.
// No lock is held while waiting, so other calls are never slowed by a wait.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "a11y/model.h"
#include "a11y/observer.h"
#include "a11y/wait/events.h"
#include "core/deadline.h"
#include "core/result.h"

namespace companyos::a11y {

// ---- conditions ---------------------------------------------------------------------

// A listed (visible) window of an app named app (case-insensitive) has exactly this title.
struct WindowAppears {
  std::string app;
  std::string title;
};

// A titled window of the app (with exactly this title, if given) that was open when the
// wait started, or opened during it, is no longer listed: destroyed, hidden, or its app
// exited. Untitled top-levels (popup menus, combo lists, tooltips) do not count. An app
// with no such window at the start makes the wait wait for one to open and then close.
struct WindowClosed {
  std::string app;
  std::optional<std::string> title;
};

// An element in a listed window of the app has text as an exact, case-sensitive substring
// of its name or of its value (Value.CurrentValue as printed, else its Text content, up
// to the first 65,536 characters). The window's title is its first element's name;
// descriptions do not count; password fields are never read.
struct TextAppears {
  std::string app;
  std::string text;
};

enum class Predicate {
  kExists,  // exactly one live element of the ref's window has the ref's identity
  kGone,    // none has it (or the ref's window is gone)
  kValue,   // exactly one has it and its value equals value exactly
  kState,   // exactly one has it and it has the state named value ("checked", "focused")
};

struct ElementPredicate {
  std::string ref;  // "@<snapshot>:e<N>"
  Predicate predicate = Predicate::kExists;
  std::optional<std::string> value;  // required for kValue and kState, refused otherwise
};

using WaitCondition = std::variant<WindowAppears, WindowClosed, TextAppears, ElementPredicate>;

// "exists", "gone", "value", "state"; INVALID_ARGS otherwise.
Result<Predicate> parse_predicate(std::string_view name);
std::string_view predicate_name(Predicate predicate);
// "window_appears", "window_closed", "text_appears", "element".
std::string_view condition_kind(const WaitCondition& condition);
nlohmann::json condition_to_json(const WaitCondition& condition);
// INVALID_ARGS: empty app, title or text; a ref that is not a ref; a value missing for
// value/state or given for exists/gone; an unknown state name. POLICY_DENIED: a password
// manager's app name.
Status validate_condition(const WaitCondition& condition);

// ---- running a wait -----------------------------------------------------------------

struct WaitOptions {
  std::chrono::milliseconds poll_interval{250};  // safety-net check after the last one
  std::chrono::milliseconds event_settle{10};    // from the first event to its check
  std::chrono::milliseconds min_check_gap{50};   // between starts of event-driven checks
  std::chrono::milliseconds check_budget{2000};  // one check's limit (a hung app)
  bool events = true;                            // false: poll only (comparisons, tests)
  // Called once, on the waiting thread, after the baseline is taken and events are on
  // (unless the baseline already decided the wait). Must not throw.
  std::function<void()> on_baseline;
  // A stop request ends the wait at its next look (within poll_interval) with INTERNAL,
  // details.reason "cancelled", retry safe: the daemon is stopping.
  std::stop_token stop;
};

// evidence, by condition:
//   window_appears {window: {id, title, app, bus_name, pid}, seen_open_by}
//   window_closed  {window: {…}, seen_open_by, gone_by, gone_at_ms}
//   text_appears   {window: {id, title}, ref, role, name, field}; the window's snapshot is
//                  stored, so ref can be acted on like a snapshot's
//   element        {ref, presence, value (value), state and states (state)}
struct WaitOutcome {
  std::string condition;                 // condition_kind()
  std::chrono::milliseconds elapsed{0};  // from the start until the condition was seen
  // What made the wait look: "start" (it held at once), "event" (an event, or a check an
  // event asked for) or "poll" (the safety-net tick).
  std::string seen_by;
  nlohmann::json evidence;
  std::size_t checks = 0;
  std::size_t events = 0;      // event signals received during the wait
  bool events_active = false;  // the registry accepted the listeners
};

nlohmann::json wait_outcome_to_json(const WaitOutcome& outcome);

Result<WaitOutcome> wait_for(Observer& observer, const WaitCondition& condition, Deadline deadline,
                             const WaitOptions& options = {});

// ---- evaluation (no bus; used by wait_for and its tests) ------------------------------

// The app's windows as one check listed them.
struct WindowsSeen {
  bool answered = true;      // false: an app of the name did not answer; windows incomplete
  bool app_running = false;  // some app of the name is on the bus
  std::vector<WindowInfo> windows;
  std::optional<Error> problem;  // why the check was incomplete, for last_seen
};

struct TextMatch {
  WindowInfo window;
  int index = 0;    // N of the element's e<N> in the window's snapshot
  std::string ref;  // "@<snapshot>:e<N>" once that snapshot is stored, else empty
  std::uint32_t role = 0;
  std::string name;
  std::string field;  // where the text is: "name" or "value"
};

struct TextSeen {
  bool answered = true;
  bool app_running = false;
  std::size_t windows_read = 0;
  std::size_t nodes_read = 0;
  std::optional<TextMatch> match;
  std::optional<Error> problem;
};

struct ElementSeen {
  enum class Presence { kOne, kNone, kSeveral, kWindowGone, kUnknown };
  Presence presence = Presence::kUnknown;  // kUnknown: the app did not answer in time
  std::optional<std::string> value;        // read for kValue
  StateSet states = 0;                     // read for kState
  bool value_withheld = false;             // a password field
  std::optional<Error> problem;
};

using CheckResult = std::variant<WindowsSeen, TextSeen, ElementSeen>;

// The first element (depth first) of the snapshot that has text in its name or value,
// never reading a password field. The match's ref is left empty.
std::optional<TextMatch> find_text(const Snapshot& snapshot, std::string_view text);

// A window a WindowAppears/WindowClosed wait has seen, keyed by bus name and path.
struct TrackedWindow {
  std::string bus_name;
  std::string path;
  std::optional<std::string> title;  // as last seen
  std::optional<int> pid;
  // What made the wait notice, as WaitOutcome::seen_by: "start", "event" (the event itself
  // or a check it triggered), "poll"; gone_by also "app_exit". seen_by "": not seen open.
  std::string seen_by;
  bool gone = false;
  std::string gone_by;
  std::chrono::steady_clock::time_point gone_at{};
};

// The state of one wait, fed with events and check results: decides when the condition
// holds and when the next check is due. Times are passed in, so any clock drives it.
class WaitTracker {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  WaitTracker(WaitCondition condition, TimePoint started, Deadline deadline, WaitOptions options);
  // ElementPredicate: the bus name of the ref's app, whose events call for a check.
  void set_element_bus_name(std::string bus_name) { element_bus_name_ = std::move(bus_name); }
  // The event listeners are registered (active: the registry accepted them). Anything that
  // changed since the first check went unseen by events, so a check is due at once.
  void events_started(bool active, TimePoint now);

  // Events of a sender whose app name is unknown are held back until learn_app_name()
  // names it (a check lists the apps), then applied in the order they came.
  void on_event(const AtspiEvent& event, TimePoint now);
  bool needs_name(const std::string& bus_name) const;
  void learn_app_name(const std::string& bus_name, const std::string& app_name);
  std::vector<std::string> unattributed_senders() const;

  void begin_check(TimePoint now);
  void end_check(CheckResult result, TimePoint now);

  bool done() const { return outcome_.has_value() || failure_.has_value(); }
  const std::optional<WaitOutcome>& outcome() const { return outcome_; }
  const std::optional<Error>& failure() const { return failure_; }
  bool check_due(TimePoint now) const;
  // When to look again: the next due check or the deadline, whichever comes first.
  TimePoint next_wake(TimePoint now) const;
  Error timeout_error(TimePoint now) const;  // TIMEOUT with details.last_seen
  nlohmann::json last_seen() const;
  const std::map<std::string, TrackedWindow>& windows() const { return windows_; }

 private:
  bool is_app_scoped() const;
  void request_check(TimePoint now);
  TimePoint next_check_at() const;
  TrackedWindow& track(const std::string& bus_name, const std::string& path);
  void apply_event(const AtspiEvent& event, TimePoint now);
  void apply_app_event(const AtspiEvent& event, TimePoint now);
  void apply_window_event(const AtspiEvent& event, TimePoint now);
  void apply_windows(const WindowsSeen& seen, TimePoint now);
  void apply_text(const TextSeen& seen, TimePoint now);
  void apply_element(const ElementSeen& seen, TimePoint now);
  bool fail_if_fatal(const std::optional<Error>& problem);
  void conclude_windows(const std::string& seen_by, TimePoint at);
  void conclude(std::string seen_by, nlohmann::json evidence, TimePoint at);

  WaitCondition condition_;
  TimePoint started_;
  Deadline deadline_;
  WaitOptions options_;
  std::optional<int> state_;  // kState: the AT-SPI state waited for
  std::string element_bus_name_;

  std::map<std::string, std::string> app_names_;  // bus name → app name
  std::vector<AtspiEvent> unattributed_;
  std::map<std::string, TrackedWindow> windows_;  // key: bus name and path

  bool in_check_ = false;
  bool baseline_done_ = false;
  std::string check_source_;  // why the current check runs: "start", "event" or "poll"
  std::optional<TimePoint> check_requested_at_;
  TimePoint last_event_check_start_{};  // paces checks when events keep coming
  TimePoint last_check_end_{};
  std::optional<TimePoint> last_check_at_;
  nlohmann::json last_check_;  // what the last check saw, for last_seen
  std::size_t checks_ = 0;
  std::size_t events_ = 0;
  bool events_active_ = false;

  std::optional<WaitOutcome> outcome_;
  std::optional<Error> failure_;
};

}  // namespace companyos::a11y
