// Runs companyosd until SIGTERM/SIGINT: socket (own or systemd's), store, method table,
// main loop. Returns the process exit status.
#pragma once

#include <chrono>
#include <string>

#include "automation/runner.h"

namespace companyos::daemon {

struct DaemonOptions {
  std::string socket_path;  // used unless systemd passed a socket
  std::string db_path;
  // How long a run waits for a person's approval before it ends blocked.
  std::chrono::seconds approval_timeout = automation::kApprovalTimeout;
};

int run_daemon(const DaemonOptions& options);

}  // namespace companyos::daemon
