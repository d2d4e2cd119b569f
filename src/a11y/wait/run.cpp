#include "a11y/wait.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "a11y/bus/call_scope.h"
#include "core/glib_handles.h"
#include "a11y/wait/checks.h"
#include "a11y/wait/conditions.h"
#include "a11y/wait/events.h"
#include "a11y/wait/main_context.h"
#include "a11y/wait/tracker.h"

namespace companyos::a11y {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Registering listeners and finding the bus are quick; a registry that does not answer
// within this costs the wait its events, not its deadline.
constexpr milliseconds kEventSetupBudget{1000};

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
              [&](const SurfaceOpens& c) -> CheckResult { return check_surface(observer_, c, until); },
              [&](const ElementPredicate& c) -> CheckResult {
                return check_element(observer_, c, until);
              },
              [&](const SelectedElement& c) -> CheckResult { return check_selected(observer_, c, until); },
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
    if (std::holds_alternative<ElementPredicate>(condition_) || std::holds_alternative<SelectedElement>(condition_)) {
      ElementSeen seen;
      seen.problem = std::move(problem);
      return seen;
    }
    if (std::holds_alternative<SurfaceOpens>(condition_)) {
      SurfaceSeen seen;
      seen.answered = false;
      seen.app_running = true;
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

// ---- running a wait (wait.h) ----------------------------------------------------------

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
