// What a method handler may use: the store, settings, clock, worker pool and facts about
// this daemon. Owned by the daemon; handlers run on the main loop thread.
#pragma once

#include <chrono>
#include <string>

namespace companyos {
class Clock;
namespace a11y {
class Observer;
}
namespace store {
class AuditLog;
class Database;
class Settings;
}  // namespace store
}  // namespace companyos

namespace companyos::daemon {

class MethodTable;
class WorkerPool;

struct DaemonContext {
  store::Database& db;
  store::Settings& settings;
  store::AuditLog& audit;
  const Clock& clock;
  WorkerPool& workers;
  a11y::Observer& observer;
  const MethodTable& methods;
  std::string socket_path;
  std::chrono::steady_clock::time_point started;
};

}  // namespace companyos::daemon
