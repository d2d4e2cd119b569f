#include "core/clock.h"
#include "daemon/context.h"
#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {

const MethodSpec kPing{
    .name = "ping",
    .summary = "check that the daemon answers",
    .params = {},
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      reply(nlohmann::json{{"pong", true}, {"time", ctx.clock.unix_seconds()}});
    },
};

const MethodSpec kMethods{
    .name = "methods",
    .summary = "list every method with its parameters, target kind and flags",
    .params = {},
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      reply(nlohmann::json{{"methods", ctx.methods.describe()}});
    },
};

}  // namespace companyos::daemon::methods
