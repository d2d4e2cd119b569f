// companyosd: the per-user desktop automation daemon.
#include <CLI/CLI.hpp>

#include "core/logging.h"
#include "core/paths.h"
#include "core/version.h"
#include "daemon/daemon.h"

int main(int argc, char** argv) {
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
  companyos::logging::init(*companyos::logging::parse_level(level));
  return companyos::daemon::run_daemon(options);
}
