// What a method handler may use: the store, settings, clock, worker pool and facts about
// this daemon. Owned by the daemon, which builds it by designated initializers (every
// member named); handlers run on the main loop thread.
#pragma once

#include <chrono>
#include <stop_token>
#include <string>

namespace companyos {
class Clock;
namespace a11y {
class ActionEngine;
class Observer;
}  // namespace a11y
namespace desktop {
class Clipboard;
}  // namespace desktop
namespace web {
class Dashboard;
}  // namespace web
namespace store {
class AuditLog;
class Database;
class Settings;
}  // namespace store
}  // namespace companyos

namespace companyos::daemon {

class AutomationService;
class MethodTable;
class SchedulerService;
class WorkerPool;

struct DaemonContext {
  store::Database& db;
  store::Settings& settings;
  store::AuditLog& audit;
  const Clock& clock;
  WorkerPool& workers;
  a11y::Observer& observer;
  a11y::ActionEngine& actions;  // acts through observer
  const MethodTable& methods;
  std::string socket_path;
  std::chrono::steady_clock::time_point started;
  AutomationService& automations;  // stores and the runner (automation_service.h)
  // Requested when the daemon begins to stop, so long waits end instead of holding it up.
  std::stop_token stopping;
  SchedulerService& scheduler;  // the trigger loop and nextRunAt (scheduler_service.h)
  desktop::Clipboard& clipboard;  // owns CLIPBOARD once something is set or pasted
  web::Dashboard& dashboard;      // serving once asked, or from the start with dashboard_port
};

}  // namespace companyos::daemon
