#include "daemon/services/automation_service.h"

#include <filesystem>
#include <map>
#include <string>

#include <spdlog/spdlog.h>

#include "automation/step_keeper.h"
#include "daemon/methods/physical_input.h"
#include "desktop/input_lock.h"
#include "store/retention.h"

namespace companyos::daemon {
namespace {

automation::DesktopStepOptions desktop_step_options(automation::StepProcessRecord* step_processes,
                                                    const std::string& store_path) {
  automation::DesktopStepOptions options;
  // Automation steps and interactive presses share one XTest lock.
  options.physical_input_lock = &desktop::physical_input_mutex();
  options.step_processes = step_processes;
  options.store_path = store_path;
  return options;
}

std::optional<automation::StepProcessRecord> step_processes_beside(const std::string& db_path) {
  const std::filesystem::path path(db_path);
  if (db_path.empty() || db_path == ":memory:" || !path.has_parent_path()) return std::nullopt;
  auto keeper = automation::find_step_keeper();
  if (!keeper) {
    spdlog::error("{} is missing beside this program and in ../libexec/companyos from it: command steps "
                  "will not start; reinstall companyos",
                  automation::kStepKeeperName);
  }
  return automation::StepProcessRecord(path.parent_path() / "step-processes", keeper.value_or(""));
}

// The system clock needs no polling: a waiting run sleeps until its deadline, a decision, a
// stop or the trigger loop's recheck, instead of waking every second while it waits.
automation::RunnerOptions runner_options(std::chrono::seconds approval_timeout) {
  automation::RunnerOptions options;
  options.approval_timeout = approval_timeout;
  options.approval_poll = options.approval_timeout;
  return options;
}

}  // namespace

AutomationService::AutomationService(Token, store::Database& db, store::Database runner_db,
                                     a11y::Observer& observer, a11y::ActionEngine& actions,
                                     const Clock& clock, std::chrono::seconds approval_timeout)
    : automations_(db, clock),
      runs_(db, clock),
      ledger_(db),
      runner_db_(std::move(runner_db)),
      step_processes_(step_processes_beside(runner_db_.path())),
      executor_(observer, actions, clock, desktop_step_options(step_processes_ ? &*step_processes_ : nullptr, runner_db_.path())),
      runner_(runner_db_, executor_, clock, runner_options(approval_timeout)) {}

Result<std::unique_ptr<AutomationService>> AutomationService::open(store::Database& db,
                                                                   a11y::Observer& observer,
                                                                   a11y::ActionEngine& actions,
                                                                   const Clock& clock,
                                                                   std::chrono::seconds approval_timeout) {
  // The runner's threads need a connection of their own (runner.h).
  auto runner_db = store::Database::open(db.path());
  if (!runner_db) return std::move(runner_db).take_error();
  auto service = std::make_unique<AutomationService>(Token{}, db, std::move(*runner_db), observer,
                                                     actions, clock, approval_timeout);
  service->recover_interrupted_runs(db, clock);
  return service;
}

void AutomationService::recover_interrupted_runs(store::Database& db, const Clock& clock) {
  std::map<std::int64_t, std::string> notes;
  if (step_processes_) {
    for (const auto& killed : step_processes_->kill_left_over()) {
      if (killed.pids.empty()) {
        notes[killed.run_id] = "its command step's processes had ended with the daemon";
        continue;
      }
      spdlog::warn("killed {} process(es) left running by a command step of run {}", killed.pids.size(),
                   killed.run_id);
      notes[killed.run_id] = "its command step's " + std::to_string(killed.pids.size()) +
                             " process(es) were still running and were killed";
    }
  }
  // A read-only store keeps what it holds (the daemon said so at start); the processes
  // above are ended all the same.
  if (!db.writable()) return;
  if (auto failed = runs_.mark_interrupted_runs_failed(notes); !failed) {
    spdlog::error("runs left active by the previous daemon: {}", failed.error().message);
  } else if (*failed > 0) {
    spdlog::warn("{} run(s) left active by the previous daemon marked failed ({})", *failed,
                 store::kInterruptedReason);
  }
  if (auto pruned = store::Retention(db, clock).prune_all(); !pruned) {
    spdlog::error("pruning run history: {}", pruned.error().message);
  } else if (pruned->runs > 0 || pruned->ledger_rows > 0) {
    spdlog::info("pruned {} run(s) and {} ledger row(s) of history", pruned->runs, pruned->ledger_rows);
  }
}

}  // namespace companyos::daemon
