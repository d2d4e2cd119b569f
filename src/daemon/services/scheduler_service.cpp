#include "daemon/services/scheduler_service.h"

#include <utility>

#include <spdlog/spdlog.h>

namespace companyos::daemon {

SchedulerService::SchedulerService(Token, const Clock& clock, AutomationService& automations,
                                   store::Settings& settings, WorkerPool& workers,
                                   std::unique_ptr<RealtimeTimer> timer)
    : automations_(automations),
      settings_(settings),
      timer_(std::move(timer)),
      triggers_(clock, *timer_, [&workers, &runner = automations.runner()](std::vector<DueTrigger> due) {
        workers.run(
            [&runner, due = std::move(due)]() -> Result<nlohmann::json> {
              start_scheduled_runs(runner, due);
              return nlohmann::json::object();
            },
            [](Result<nlohmann::json>) {});
      }) {
  timer_->on_event([this](RealtimeTimer::Event event) {
    if (event == RealtimeTimer::Event::kClockSet) {
      triggers_.on_clock_set();
    } else {
      triggers_.on_timer();
    }
  });
}

Result<std::unique_ptr<SchedulerService>> SchedulerService::open(const Clock& clock,
                                                                 AutomationService& automations,
                                                                 store::Settings& settings,
                                                                 WorkerPool& workers) {
  auto timer = RealtimeTimer::create(g_main_context_default());
  if (!timer) return std::move(timer).take_error();
  auto service = std::make_unique<SchedulerService>(Token{}, clock, automations, settings, workers,
                                                    std::move(timer).value());
  if (auto loaded = service->reload(); !loaded) return std::move(loaded).take_error();
  return service;
}

Status SchedulerService::reload() {
  auto records = automations_.automations().list();
  if (!records) return std::move(records).take_error();
  auto enabled = settings_.get("automations_enabled");
  if (!enabled) return std::move(enabled).take_error();
  triggers_.reset(*records, !enabled->is_boolean() || enabled->get<bool>());
  return ok_status();
}

}  // namespace companyos::daemon
