// companyosd: the per-user desktop automation daemon.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "core/logging.h"
#include "core/paths.h"
#include "core/version.h"
#include "automation/runner.h"
#include "daemon/daemon.h"
#include "x11/connection.h"

int main(int argc, char** argv) {
  // Workers, runs and libraries (libatspi reads the bus address from the X root window)
  // use Xlib from several threads; without this, two `status` requests at once corrupted
  // the heap in Xlib's shared extension records.
  const bool x11_threads = companyos::x11::init_threads();
  CLI::App app{"companyosd - the companyOS desktop automation daemon.\n"
               "Serves the companyos CLI and agents over a private Unix socket."};
  app.footer(
      "Examples:\n"
      "  companyosd &                                  # serve $XDG_RUNTIME_DIR/companyos/control.sock\n"
      "  companyosd --socket /tmp/x/s --log-level debug\n"
      "  systemctl --user start companyosd.socket      # socket-activated under systemd\n"
      "Environment: COMPANYOS_SOCKET overrides the default socket path.");
  companyos::daemon::DaemonOptions options;
  options.socket_path = companyos::paths::default_socket();
  options.db_path = companyos::paths::default_database();
  std::string level = "info";
  app.add_option("--socket", options.socket_path, "socket path")->capture_default_str();
  app.add_option("--db", options.db_path, "SQLite store path")->capture_default_str();
  std::int64_t approval_timeout = companyos::automation::kApprovalTimeout.count();
  app.add_option("--approval-timeout", approval_timeout,
                 "seconds a run waits for a person's approval before it ends blocked")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{7 * 24 * 3600}))
      ->capture_default_str();
  app.add_option("--log-level", level, "trace|debug|info|warn|error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
      ->capture_default_str();
  app.set_version_flag("--version", std::string("companyosd ") + companyos::kVersion);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  options.approval_timeout = std::chrono::seconds(approval_timeout);
  companyos::logging::init(*companyos::logging::parse_level(level));
  if (!x11_threads) spdlog::warn("Xlib cannot be made thread-safe; X11 requests may crash the daemon");
  return companyos::daemon::run_daemon(options);
}
