// dashboard: serve the automations dashboard on 127.0.0.1 and print a one-time login link
// (docs/dashboard.md).
#include <iostream>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {

namespace {

[[maybe_unused]] const bool dashboard_registered = register_command(
    methods::kDashboard,
    {.details = "Serves the dashboard on 127.0.0.1 only: at the port of the setting dashboard_port, or, when\n"
                "that is 0 (the default), at a free port until the daemon stops. Prints a link that logs one\n"
                "browser in, once, within ten minutes; run it again for another browser. Only you can ask:\n"
                "the daemon's socket serves your user alone, and agents (MCP) are refused.",
     .examples = "  companyos dashboard                          # prints http://127.0.0.1:<port>/login?token=…\n"
                 "  xdg-open \"$(companyos --json dashboard | jq -r .data.url)\"\n"
                 "  companyos settings set dashboard_port 8765   # serve there whenever the daemon runs\n"
                 "  companyos dashboard --stop\n",
     .human = [](const nlohmann::json& data) {
       if (!data.value("serving", false)) {
         std::cout << "the dashboard is no longer served\n";
         return;
       }
       std::cout << plain(data["url"]) << "\n"
                 << "(opens the dashboard in one browser, once, within ten minutes)\n";
     }});

}  // namespace
}  // namespace companyos::cli
