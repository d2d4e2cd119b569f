// The daemon's trigger loop (docs/scheduling.md), apart from the timer that
// wakes it: one TriggerPlanner holding every automation's schedule, one wake-up armed for the
// earliest trigger and re-armed after every change, and, when it fires, the triggers that
// came due handed on to start their runs. Nothing polls: between triggers the loop sleeps.
// The timer is injected (WakeTimer), so tests drive the loop with a fake clock and no real
// time passes; the daemon's is realtime_timer.h. Main loop thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include "automation/runner.h"
#include "core/clock.h"
#include "schedule/trigger_planner.h"
#include "store/automation_store.h"

namespace companyos::daemon {

// Wakes the loop at a wall-clock time.
class WakeTimer {
 public:
  virtual ~WakeTimer() = default;
  // Replaces what was armed. nullopt: nothing to wake for.
  virtual void arm(std::optional<std::int64_t> at_unix) = 0;
};

// A trigger that came due, with the automation's trigger after it (its run's retries must
// end before that one).
struct DueTrigger {
  std::int64_t automation_id = 0;
  std::int64_t at_unix = 0;
  std::optional<std::int64_t> next_trigger_at;
  bool operator==(const DueTrigger&) const = default;
};

// What the planner needs of a stored automation: its schedule and zone from the stored
// definition (no schedule when the text does not parse), and the record's enabled flag.
schedule::ScheduledAutomation scheduled_automation(const store::AutomationRecord& record);

class TriggerLoop {
 public:
  // Receives the triggers of one wake-up in time order; the daemon starts their runs on a
  // worker (start_scheduled_runs), tests may start them at once.
  using StartRuns = std::function<void(std::vector<DueTrigger>)>;

  // clock and timer must outlive the loop.
  TriggerLoop(const Clock& clock, WakeTimer& timer, StartRuns start_runs);

  // Plans exactly these automations, forgetting any other, under the master switch given.
  void reset(const std::vector<store::AutomationRecord>& automations, bool automations_enabled);
  // Created or changed (definition, enabled, level): planned again from now. A schedule
  // that no longer parses (its zone gone from the tz database) leaves it unplanned.
  void update(const store::AutomationRecord& automation);
  void remove(std::int64_t id);
  // automations_enabled: while off nothing is planned and the timer is disarmed.
  void set_automations_enabled(bool enabled);

  // The timer fired: every trigger whose time has come is handed on, once, however late
  // (after a clock jump the planner has dropped the ones in between instead).
  void on_timer();
  // The wall clock was set or the machine resumed. A jump beyond the planner's threshold
  // (2 s against the steady clock) plans everything from the new time, and the triggers it
  // skipped over are not caught up; a smaller step is only lateness, as in on_timer().
  void on_clock_set();

  // nextRunAt: Unix seconds, or nullopt for manual, disabled, unknown or stopped-all.
  std::optional<std::int64_t> next_run_at(std::int64_t id) const;

 private:
  void plan(const store::AutomationRecord& automation);
  void arm();

  const Clock& clock_;
  WakeTimer& timer_;
  StartRuns start_runs_;
  schedule::TriggerPlanner planner_;
  std::set<std::int64_t> known_;  // the planner cannot list what it holds
};

// Starts one run per trigger (Trigger::kSchedule with its next trigger; the runner decides
// whether it waits for a person, is skipped as an overlap, or replaces a run still waiting),
// logs each outcome, then has the runner look at its approval deadlines. Runner::start can
// wait for a replaced run to end, so the daemon calls this off the main loop.
void start_scheduled_runs(automation::Runner& runner, const std::vector<DueTrigger>& due);

}  // namespace companyos::daemon
