// mcp: the MCP server for AI agents on stdin/stdout (docs/mcp.md).
#include "cli/command.h"
#include "mcp/stdio.h"

namespace companyos::cli {

void add_mcp_command(CLI::App& app, Invocation& out) {
  CLI::App* cmd = add_command(
      app, "mcp",
      "Serve the Model Context Protocol on stdin/stdout for an AI agent, as a client of the daemon: "
      "every policy and the audit apply. Speaks MCP 2026-07-28 and 2025-11-25.",
      "  claude mcp add companyos -- companyos mcp\n"
      "  companyos mcp --socket /run/user/1000/companyos/control.sock\n");
  cmd->fallthrough();  // --socket may follow the subcommand
  cmd->callback([&out] { out.local = [](const std::string& socket) { return mcp::run_stdio(socket); }; });
}

}  // namespace companyos::cli
