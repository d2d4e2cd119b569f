#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "store/audit.h"

namespace companyos::daemon::methods {

const MethodSpec kAudit{
    .decl = declared::kAudit,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto limit = params.value("limit", std::int64_t{50});
      auto rows = ctx.audit.recent(static_cast<int>(limit));
      if (!rows) return reply(std::move(rows).take_error());
      reply(nlohmann::json{{"rows", std::move(*rows)}});
    },
};

}  // namespace companyos::daemon::methods
