#include "core/clock.h"
#include "daemon/context.h"
#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {

const MethodSpec kPing{
    .decl = declared::kPing,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      reply(nlohmann::json{{"pong", true}, {"time", ctx.clock.unix_seconds()}});
    },
};

const MethodSpec kMethods{
    .decl = declared::kMethods,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      reply(nlohmann::json{{"methods", ctx.methods.describe()}});
    },
};

}  // namespace companyos::daemon::methods
