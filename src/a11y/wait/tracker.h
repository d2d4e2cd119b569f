// The bookkeeping of one wait, apart from the bus: what each check saw (WindowsSeen,
// TextSeen, ElementSeen), the windows seen open and closed, and the WaitTracker, which
// decides from events and check results when the condition holds and when to look next.
// No bus here: wait_for feeds it, and its tests drive it with any clock.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "a11y/model.h"
#include "a11y/wait.h"
#include "a11y/wait/events.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

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

struct SurfaceSeen {
  bool answered = true;
  bool app_running = false;
  std::size_t windows_read = 0;
  std::size_t surfaces_open = 0;  // of any kind
  std::optional<SurfaceOpenedEvidence> match;
  std::optional<Error> problem;
};

// What a look at an element condition saw, judged by judge_element; no sighting when the
// app did not answer in time, which proves nothing either way.
struct ElementSeen {
  std::optional<ElementSighting> sighting;
  std::string ref;  // a selected element's one match, in a stored snapshot
  std::optional<Error> problem;
};

using CheckResult = std::variant<WindowsSeen, TextSeen, SurfaceSeen, ElementSeen>;

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
  void apply_surface(const SurfaceSeen& seen, TimePoint now);
  void apply_element(const ElementSeen& seen, TimePoint now);
  bool fail_if_fatal(const std::optional<Error>& problem);
  bool fail_if_app_left(bool answered, bool app_running, TimePoint now);
  void conclude_windows(const std::string& seen_by, TimePoint at);
  void conclude(std::string seen_by, WaitEvidence evidence, TimePoint at);

  WaitCondition condition_;
  TimePoint started_;
  Deadline deadline_;
  WaitOptions options_;
  std::string element_bus_name_;

  std::map<std::string, std::string> app_names_;  // bus name → app name
  std::vector<AtspiEvent> unattributed_;
  std::map<std::string, TrackedWindow> windows_;  // key: bus name and path
  // A check found the app on the bus: once it is gone again, a window or text it was to
  // show can no longer come, so the wait ends (an app not started yet is waited for).
  bool app_seen_running_ = false;

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
