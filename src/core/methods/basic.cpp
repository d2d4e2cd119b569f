#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kPing{
    .name = "ping",
    .command = "ping",
    .summary = "check that the daemon answers",
    .flags = kFlagDashboard,
    .returns = R"(`{"pong": true, "time": <unix seconds>}`)",
};

const MethodDeclaration kMethods{
    .name = "methods",
    .command = "methods",
    .summary = "list every method with its parameters, target kind and flags",
    .returns = R"(every method with its params (name, type, required, help, `min`/`max` for bounded integers), target kind and flags)",
};

const MethodDeclaration kStatus{
    .name = "status",
    .command = "status",
    .summary = "daemon, store and desktop session facts",
    .flags = kFlagDashboard,
    .returns = R"(version, pid, uptime, socket, store path, schema version, `writable` and `problem` (what to do when it cannot be written), display server (with `x11` or `wayland`: the compositor and mutter's interfaces — see [wayland.md](wayland.md)), accessibility bus, physical-input setting)",
};

const MethodDeclaration kDoctor{
    .name = "doctor",
    .command = "doctor",
    .summary = "whether this session gives an automation what it needs, each problem with its fix",
    .returns = R"(`checks`: each with `check`, `state` (`ok`, `warning` or `problem`), `found`, `fix` (null when nothing is needed); `ready`: no check found a problem — see [configuration.md](configuration.md))",
};

const MethodDeclaration kAudit{
    .name = "audit",
    .command = "audit",
    .summary = "the newest audit rows: method, app, target role, outcome, error code, duration",
    .params = {{.name = "limit", .type = ParamType::kInteger, .help = "rows to return (default 50)",
                .range = IntRange{1, 1000}}},
    .returns = R"(`rows`: at, method, app, target_role, outcome, error_code, duration_ms, `origin` (who asked: `person` or `agent`))",
};

}  // namespace companyos::methods
