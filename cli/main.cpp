// companyos: the command-line client of companyosd.
// Exit status: 0 ok, 1 the daemon answered with an error, 2 usage error, 3 daemon not reachable.
#include <algorithm>
#include <iostream>
#include <optional>

#include "core/daemon_client.h"
#include "cli/command.h"
#include "cli/render.h"
#include "cli/terminal_output.h"
#include "core/paths.h"
#include "core/version.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;
constexpr int kExitUnreachable = 3;

void print_error(const nlohmann::json& error) {
  std::cerr << "error: " << companyos::cli::plain(error.value("code", "INTERNAL")) << ": "
            << companyos::cli::plain(error.value("message", "")) << '\n';
  if (error.contains("suggestion")) std::cerr << "hint: " << companyos::cli::plain(error["suggestion"]) << '\n';
  if (error.contains("details") && error["details"].is_object() && !error["details"].empty()) {
    std::cerr << "details: " << error["details"].dump() << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace companyos;
  using namespace companyos::cli;
  CLI::App app{"companyos - drive desktop apps through the companyOS daemon (companyosd)."};
  app.footer(
      "Examples:\n"
      "  companyos status\n"
      "  companyos settings get\n"
      "  companyos --json ping\n"
      "  companyos apps\n"
      "  companyos snapshot --app mousepad -i\n"
      "  companyos call methods\n"
      "Exit status: 0 ok, 1 error reply, 2 usage error, 3 daemon not reachable.\n"
      "Run `companyos COMMAND --help` for a command's options and examples.");
  app.require_subcommand(1);
  app.fallthrough();
  bool json = false;
  std::string socket = companyos::paths::default_socket();
  int timeout_ms = 120000;
  app.add_flag("--json", json, "print the daemon's reply envelope exactly");
  app.add_option("--socket", socket, "daemon socket (default: $COMPANYOS_SOCKET or "
                                     "$XDG_RUNTIME_DIR/companyos/control.sock)");
  app.add_option("--reply-timeout", timeout_ms, "how long to wait for the daemon's reply, in ms "
                                                 "(wait: at least its --timeout plus 10 s)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.set_version_flag("--version", std::string("companyos ") + companyos::kVersion);

  Invocation invocation;
  add_all_commands(app, invocation);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (invocation.local) return invocation.local(socket);
  // From here on everything printed for a person is escaped line by line; --json output
  // goes to the program that asked for it exactly as the daemon sent it.
  std::optional<TerminalSafeOutput> terminal_safe;
  if (!json) terminal_safe.emplace();
  if (!json) {
    for (const auto& [key, value] : invocation.human_params.items()) {
      if (!invocation.params.contains(key)) invocation.params[key] = value;
    }
  }

  DaemonClient client(socket);
  CallOutcome outcome = client.call(invocation.method, invocation.params,
                                    std::max(std::chrono::milliseconds(timeout_ms), invocation.reply_timeout));
  switch (outcome.failure) {
    case CallFailure::kNone:
      break;
    case CallFailure::kUnreachable:
      if (invocation.unreachable) return invocation.unreachable(json, socket, outcome.detail);
      std::cerr << "companyos: cannot reach the daemon at " << socket << ": " << outcome.detail
                << "\nStart it with `companyosd &` (or `systemctl --user start companyosd.socket`),"
                   " or point --socket / COMPANYOS_SOCKET at a running one.\n";
      return kExitUnreachable;
    case CallFailure::kBrokenReply:
      std::cerr << "companyos: " << outcome.detail << " (" << socket << ")\n";
      return kExitUnreachable;
    case CallFailure::kTimeout:
    case CallFailure::kCancelled:
      std::cerr << "companyos: " << outcome.detail << "; the daemon at " << socket
                << " may be busy (see its log)\n";
      return kExitError;
  }

  const nlohmann::json& reply = outcome.envelope;
  const bool ok = reply.value("ok", false);
  const auto reports_failure = [&invocation](const nlohmann::json& data) {
    return invocation.failed && invocation.failed(data);
  };
  if (json) {
    std::cout << reply.dump() << '\n';
    return ok && !reports_failure(reply.value("data", nlohmann::json::object())) ? kExitOk : kExitError;
  }
  if (!ok) {
    print_error(reply.value("error", nlohmann::json::object()));
    if (invocation.human_error) invocation.human_error(reply.value("error", nlohmann::json::object()));
    return kExitError;
  }
  const nlohmann::json data = reply.value("data", nlohmann::json::object());
  if (invocation.human) {
    invocation.human(data);
  } else {
    render_fields(std::cout, data);
  }
  return reports_failure(data) ? kExitError : kExitOk;
}
