// mcp: the MCP server for AI agents on stdin/stdout (docs/mcp.md).
#include "cli/command.h"
#include <iostream>
#include <memory>

#include "mcp/stdio.h"
#include "mcp/tools.h"

namespace companyos::cli {

void add_mcp_command(CLI::App& app, Invocation& out) {
  CLI::App* cmd = add_command(
      app, "mcp",
      "Serve the Model Context Protocol on stdin/stdout for an AI agent, as a client of the daemon: "
      "every policy and the audit apply. Speaks MCP 2026-07-28 and 2025-11-25.",
      "  claude mcp add companyos -- companyos mcp\n"
      "  companyos mcp --socket /run/user/1000/companyos/control.sock\n"
      "  companyos mcp --tools-markdown     # the tool table docs/mcp.md holds\n");
  cmd->fallthrough();  // --socket may follow the subcommand
  auto markdown = std::make_shared<bool>(false);
  cmd->add_flag("--tools-markdown", *markdown, "print the tool table of docs/mcp.md and exit (no server)");
  cmd->callback([&out, markdown] {
    if (*markdown) {
      out.local = [](const std::string&) {
        std::cout << mcp::tools_markdown_table();
        return 0;
      };
      return;
    }
    out.local = [](const std::string& socket) { return mcp::run_stdio(socket); };
  });
}

}  // namespace companyos::cli
