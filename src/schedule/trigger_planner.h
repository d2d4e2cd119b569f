// Plans the next trigger of every scheduled automation from an injected clock, reports the
// triggers that have come due, and re-plans without catch-up after the wall clock jumps.
// Pure bookkeeping: the daemon arms one timer for earliest() and calls due() when it fires.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "companyos/result.h"
#include "core/clock.h"
#include "schedule/schedule.h"
#include "schedule/time_zone.h"

namespace companyos::schedule {

struct ScheduledAutomation {
  std::int64_t id = 0;
  std::optional<std::string> schedule;  // nullopt: manual runs only
  std::string timezone{kDefaultTimeZone};
  bool enabled = true;
};

struct PlannedTrigger {
  std::int64_t automation_id = 0;
  std::int64_t at_unix = 0;  // the trigger's own time, not when it was noticed
  bool operator==(const PlannedTrigger&) const = default;
};

struct PlannerTick {
  std::vector<PlannedTrigger> due;  // ordered by time, then id
  // Set when the wall clock moved against the steady clock by more than the threshold
  // (clock set, suspend/resume) since the last look; triggers in between were dropped.
  std::optional<std::int64_t> clock_jump_seconds;
};

struct PlannerOptions {
  // Wall-minus-steady drift beyond this is a jump. NTP slews both clocks alike, so only a
  // step (clock set, suspend) moves one against the other.
  std::chrono::seconds jump_threshold{2};
  // After the clock is set back by at most this much, triggers that already fired do not
  // fire again (as Vixie cron); a larger step back plans from the new time.
  std::chrono::seconds repeat_guard{std::chrono::hours{3}};
};

class TriggerPlanner {
 public:
  // The clock must outlive the planner.
  explicit TriggerPlanner(const Clock& clock, PlannerOptions options = {});

  // Adds or replaces one automation and plans it from now. A bad schedule or zone returns
  // INVALID_ARGS and keeps that automation's previous plan.
  Status upsert(const ScheduledAutomation& automation);
  void remove(std::int64_t id);
  // The automations master switch ("stop all"): while off, nothing has a next run.
  void set_automations_enabled(bool enabled);
  // Plans every automation again from now, dropping triggers due() has not collected (for a
  // resume or clock-change notification that arrives before the next due()).
  void replan();

  // nextRunAt: Unix seconds, or nullopt for manual, disabled, unknown or stopped-all.
  std::optional<std::int64_t> next_run_at(std::int64_t id) const;
  std::optional<PlannedTrigger> earliest() const;
  // How long a timer should sleep until earliest() (zero when it is already due).
  std::optional<std::chrono::milliseconds> delay_until_earliest() const;

  // The triggers whose time has arrived; each is planned on to its next trigger after now,
  // so a late call fires an automation once, not once per missed trigger.
  PlannerTick due();

 private:
  struct Entry {
    std::optional<Schedule> schedule;
    bool enabled = true;
    std::optional<std::int64_t> next_run;
    std::optional<std::int64_t> last_fired;
  };

  void plan(Entry& entry, std::int64_t now) const;
  void plan_all();
  // Re-plans everything when the clock jumped since the last look, noting the jump.
  void observe_clock();
  std::chrono::nanoseconds wall_minus_steady() const;

  const Clock& clock_;
  PlannerOptions options_;
  bool automations_enabled_ = true;
  std::map<std::int64_t, Entry> entries_;
  std::chrono::nanoseconds last_wall_minus_steady_;
  std::optional<std::int64_t> unreported_jump_;
};

}  // namespace companyos::schedule
