#include "daemon/services/trigger_loop.h"

#include <date/date.h>

#include <chrono>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "automation/definition.h"

namespace companyos::daemon {
namespace {

std::string utc_text(std::int64_t unix_seconds) {
  return date::format("%FT%TZ", date::sys_seconds{std::chrono::seconds{unix_seconds}});
}

}  // namespace

schedule::ScheduledAutomation scheduled_automation(const store::AutomationRecord& record) {
  schedule::ScheduledAutomation out;
  out.id = record.id;
  out.enabled = record.enabled;
  const auto definition = nlohmann::json::parse(record.definition, nullptr, false);
  if (!definition.is_object()) return out;
  if (const auto it = definition.find("schedule"); it != definition.end() && it->is_string()) {
    out.schedule = it->get<std::string>();
  }
  const auto zone = definition.find("timezone");
  out.timezone = zone != definition.end() && zone->is_string() ? zone->get<std::string>()
                                                               : std::string(automation::kDefaultTimeZone);
  return out;
}

TriggerLoop::TriggerLoop(const Clock& clock, WakeTimer& timer, StartRuns start_runs)
    : clock_(clock), timer_(timer), start_runs_(std::move(start_runs)), planner_(clock) {}

void TriggerLoop::reset(const std::vector<store::AutomationRecord>& automations,
                        bool automations_enabled) {
  // Kept ones are upserted, not removed and added, so they keep what already fired.
  std::set<std::int64_t> gone = std::exchange(known_, {});
  for (const auto& record : automations) gone.erase(record.id);
  for (auto id : gone) planner_.remove(id);
  planner_.set_automations_enabled(automations_enabled);
  for (const auto& record : automations) plan(record);
  arm();
}

void TriggerLoop::update(const store::AutomationRecord& automation) {
  plan(automation);
  arm();
}

void TriggerLoop::remove(std::int64_t id) {
  known_.erase(id);
  planner_.remove(id);
  arm();
}

void TriggerLoop::set_automations_enabled(bool enabled) {
  planner_.set_automations_enabled(enabled);
  arm();
}

void TriggerLoop::on_timer() {
  auto tick = planner_.due();
  if (tick.clock_jump_seconds) {
    spdlog::warn("schedule: the wall clock jumped by {} s; every trigger is planned from the new "
                 "time and none it skipped is caught up",
                 *tick.clock_jump_seconds);
  }
  std::vector<DueTrigger> due;
  due.reserve(tick.due.size());
  for (const auto& trigger : tick.due) {
    const auto next = planner_.next_run_at(trigger.automation_id);
    spdlog::info("schedule: automation {} triggers (its trigger of {}; next {})", trigger.automation_id,
                 utc_text(trigger.at_unix), next ? utc_text(*next) : "none");
    due.push_back({trigger.automation_id, trigger.at_unix, next});
  }
  arm();
  if (!due.empty()) start_runs_(std::move(due));
}

// Not replan(): the planner tells a real jump (more than its threshold against the steady
// clock, dropped) from a step of a second or so, after which a trigger just passed is only
// late and fires once, as after a busy main loop.
void TriggerLoop::on_clock_set() {
  spdlog::info("schedule: the wall clock was set (or the machine resumed); now {}",
               utc_text(clock_.unix_seconds()));
  on_timer();
}

std::optional<std::int64_t> TriggerLoop::next_run_at(std::int64_t id) const {
  return planner_.next_run_at(id);
}

void TriggerLoop::plan(const store::AutomationRecord& automation) {
  known_.insert(automation.id);
  if (auto planned = planner_.upsert(scheduled_automation(automation)); !planned) {
    // Validated when saved, so only a zone that left the tz database gets here; an old plan
    // must not stay behind.
    spdlog::warn("schedule: automation {} is not scheduled: {}", automation.id, planned.error().message);
    planner_.remove(automation.id);
  }
}

void TriggerLoop::arm() {
  const auto earliest = planner_.earliest();
  timer_.arm(earliest ? std::optional<std::int64_t>(earliest->at_unix) : std::nullopt);
}

void start_scheduled_runs(automation::Runner& runner, const std::vector<DueTrigger>& due) {
  for (const auto& trigger : due) {
    auto run = runner.start(trigger.automation_id,
                            automation::StartRequest{automation::Trigger::kSchedule, trigger.next_trigger_at});
    if (!run) {
      spdlog::warn("schedule: automation {} did not start: {}", trigger.automation_id, run.error().message);
      continue;
    }
    if (run->status == store::RunStatus::kSkipped) {
      spdlog::info("schedule: run {} of automation {} skipped: {}", run->id, trigger.automation_id,
                   run->reason.value_or("another run was active"));
    } else if (run->status == store::RunStatus::kWaiting) {
      spdlog::info("schedule: run {} of automation {} waits for a person's approval", run->id,
                   trigger.automation_id);
    } else {
      spdlog::info("schedule: run {} of automation {} started unattended ({})", run->id,
                   trigger.automation_id, store::to_string(run->status));
    }
  }
  runner.recheck_deadlines();
}

}  // namespace companyos::daemon
