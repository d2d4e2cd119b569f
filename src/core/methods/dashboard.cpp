#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kDashboard{
    .name = "dashboard",
    .command = "dashboard",
    .summary = "serve the automations dashboard on 127.0.0.1 and give a one-time login link",
    .params = {{.name = "stop", .type = ParamType::kBoolean,
                .help = "stop serving instead (setting dashboard_port serves it again at the daemon's next start)"}},
    // The link logs a browser in as the person: never an agent's to ask for.
    .flags = kFlagEffectful | kFlagPersonOnly,
    .returns = R"(`serving`; while serving, `url` (logs one browser in, once, within ten minutes), `port` and `pages` (the page files' folder) — see [dashboard.md](dashboard.md))",
};

}  // namespace companyos::methods
