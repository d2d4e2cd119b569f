// The daemon's side of automations: the stores its methods read and write through the
// daemon's own store connection (main loop only), and the one Runner, which has a
// connection of its own and runs steps on the desktop. Built once at start, after the store.
#pragma once

#include <optional>

#include <memory>

#include "a11y/action_engine.h"
#include "a11y/observer.h"
#include "automation/desktop_steps.h"
#include "automation/runner.h"
#include "companyos/result.h"
#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_ledger.h"
#include "store/run_store.h"

namespace companyos::daemon {

class AutomationService {
  struct Token {
    explicit Token() = default;
  };

 public:
  // Opens the runner's connection on db's file. Before anything can start a run, runs that
  // a previous daemon left running or waiting become failed ("daemon restarted before
  // completion") and history is pruned; a failure there is logged, not fatal. Before that,
  // the process groups of command steps a killed daemon left running are killed, and the
  // run they belonged to says so.
  // approval_timeout: how long a run waits for a person before it ends blocked.
  static Result<std::unique_ptr<AutomationService>> open(
      store::Database& db, a11y::Observer& observer, a11y::ActionEngine& actions, const Clock& clock,
      std::chrono::seconds approval_timeout = automation::kApprovalTimeout);

  // Through open() only (Token is private).
  AutomationService(Token, store::Database& db, store::Database runner_db, a11y::Observer& observer,
                    a11y::ActionEngine& actions, const Clock& clock, std::chrono::seconds approval_timeout);
  AutomationService(const AutomationService&) = delete;
  AutomationService& operator=(const AutomationService&) = delete;

  // Main loop only: they use the daemon's connection.
  store::AutomationStore& automations() { return automations_; }
  store::RunStore& runs() { return runs_; }
  store::RunLedger& ledger() { return ledger_; }
  // Any thread (see runner.h for which calls block).
  automation::Runner& runner() { return runner_; }

 private:
  void recover_interrupted_runs(store::Database& db, const Clock& clock);

  store::AutomationStore automations_;
  store::RunStore runs_;
  store::RunLedger ledger_;
  store::Database runner_db_;
  // Beside the store's file; none for an in-memory store.
  std::optional<automation::StepProcessRecord> step_processes_;
  automation::DesktopStepExecutor executor_;
  automation::Runner runner_;
};

}  // namespace companyos::daemon
