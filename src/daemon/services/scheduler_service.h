// The daemon's scheduler: the trigger loop (trigger_loop.h) woken by a realtime timer on the
// main loop, fed from the store at start, starting scheduled runs on a worker. The methods
// that change automations or the master switch tell it through triggers(); nextRunAt is read
// from it. Main loop thread only.
#pragma once

#include <memory>

#include "companyos/result.h"
#include "core/clock.h"
#include "daemon/server/worker_pool.h"
#include "daemon/services/automation_service.h"
#include "daemon/services/realtime_timer.h"
#include "daemon/services/trigger_loop.h"
#include "store/settings.h"

namespace companyos::daemon {

class SchedulerService {
  struct Token {
    explicit Token() = default;
  };

 public:
  // Plans every stored automation under the automations_enabled setting and arms the timer
  // on the default main context. Every reference must outlive the service.
  static Result<std::unique_ptr<SchedulerService>> open(const Clock& clock, AutomationService& automations,
                                                        store::Settings& settings, WorkerPool& workers);

  // Through open() only (Token is private).
  SchedulerService(Token, const Clock& clock, AutomationService& automations, store::Settings& settings,
                   WorkerPool& workers, std::unique_ptr<RealtimeTimer> timer);
  SchedulerService(const SchedulerService&) = delete;
  SchedulerService& operator=(const SchedulerService&) = delete;

  TriggerLoop& triggers() { return triggers_; }
  // Plans everything again from the store and settings: after stop-all, which disables every
  // automation through the runner's own connection, and when the master switch turns on.
  Status reload();

 private:
  AutomationService& automations_;
  store::Settings& settings_;
  std::unique_ptr<RealtimeTimer> timer_;
  TriggerLoop triggers_;
};

}  // namespace companyos::daemon
