// Runs companyosd until SIGTERM/SIGINT: socket (own or systemd's), store, method table,
// main loop. Returns the process exit status.
#pragma once

#include <string>

namespace companyos::daemon {

struct DaemonOptions {
  std::string socket_path;  // used unless systemd passed a socket
  std::string db_path;
};

int run_daemon(const DaemonOptions& options);

}  // namespace companyos::daemon
