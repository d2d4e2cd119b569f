#include "schedule/trigger_planner.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace companyos::schedule {

TriggerPlanner::TriggerPlanner(const Clock& clock, PlannerOptions options)
    : clock_(clock), options_(options), last_wall_minus_steady_(wall_minus_steady()) {}

Status TriggerPlanner::upsert(const ScheduledAutomation& automation) {
  observe_clock();
  Entry entry;
  if (automation.schedule) {
    auto schedule = Schedule::create(*automation.schedule, automation.timezone);
    if (!schedule) return std::move(schedule).take_error();
    entry.schedule = std::move(schedule).value();
  }
  entry.enabled = automation.enabled;
  if (auto existing = entries_.find(automation.id); existing != entries_.end()) {
    entry.last_fired = existing->second.last_fired;
  }
  plan(entry, clock_.unix_seconds());
  entries_.insert_or_assign(automation.id, std::move(entry));
  return ok_status();
}

void TriggerPlanner::remove(std::int64_t id) { entries_.erase(id); }

void TriggerPlanner::set_automations_enabled(bool enabled) {
  observe_clock();
  automations_enabled_ = enabled;
  plan_all();
}

void TriggerPlanner::replan() {
  observe_clock();
  plan_all();
}

std::optional<std::int64_t> TriggerPlanner::next_run_at(std::int64_t id) const {
  auto found = entries_.find(id);
  if (found == entries_.end()) return std::nullopt;
  return found->second.next_run;
}

std::optional<PlannedTrigger> TriggerPlanner::earliest() const {
  std::optional<PlannedTrigger> first;
  for (const auto& [id, entry] : entries_) {
    if (entry.next_run && (!first || *entry.next_run < first->at_unix)) {
      first = PlannedTrigger{id, *entry.next_run};
    }
  }
  return first;
}

std::optional<std::chrono::milliseconds> TriggerPlanner::delay_until_earliest() const {
  auto first = earliest();
  if (!first) return std::nullopt;
  std::chrono::system_clock::time_point at{std::chrono::seconds{first->at_unix}};
  // Rounded up so the timer never wakes just before the trigger's second.
  auto wait = std::chrono::ceil<std::chrono::milliseconds>(at - clock_.wall());
  return std::max(wait, std::chrono::milliseconds{0});
}

PlannerTick TriggerPlanner::due() {
  PlannerTick tick;
  observe_clock();
  tick.clock_jump_seconds = std::exchange(unreported_jump_, std::nullopt);
  const std::int64_t now = clock_.unix_seconds();
  for (auto& [id, entry] : entries_) {
    if (!entry.next_run || *entry.next_run > now) continue;
    tick.due.push_back({id, *entry.next_run});
    entry.last_fired = entry.next_run;
    plan(entry, now);
  }
  std::ranges::sort(tick.due, {},
                    [](const PlannedTrigger& t) { return std::tie(t.at_unix, t.automation_id); });
  return tick;
}

void TriggerPlanner::plan(Entry& entry, std::int64_t now) const {
  entry.next_run.reset();
  if (!automations_enabled_ || !entry.enabled || !entry.schedule) return;
  std::int64_t after = now;
  if (entry.last_fired && *entry.last_fired > now &&
      *entry.last_fired - now <= options_.repeat_guard.count()) {
    after = *entry.last_fired;
  }
  entry.next_run = entry.schedule->next_after(after);
}

void TriggerPlanner::plan_all() {
  const std::int64_t now = clock_.unix_seconds();
  for (auto& [id, entry] : entries_) plan(entry, now);
}

// Wall and steady time advance together unless someone sets the clock or the machine
// sleeps (the steady clock stops during suspend); either way the triggers planned on the old
// wall time are wrong, and the ones skipped over are dropped rather than caught up.
void TriggerPlanner::observe_clock() {
  const std::chrono::nanoseconds current = wall_minus_steady();
  const std::chrono::nanoseconds drift = current - last_wall_minus_steady_;
  last_wall_minus_steady_ = current;
  if (std::chrono::abs(drift) <= options_.jump_threshold) return;
  const std::int64_t jump = std::chrono::duration_cast<std::chrono::seconds>(drift).count();
  unreported_jump_ = unreported_jump_.value_or(0) + jump;
  plan_all();
}

std::chrono::nanoseconds TriggerPlanner::wall_minus_steady() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_.wall().time_since_epoch()) -
         std::chrono::duration_cast<std::chrono::nanoseconds>(clock_.steady().time_since_epoch());
}

}  // namespace companyos::schedule
