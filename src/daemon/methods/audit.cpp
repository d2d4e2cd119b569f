#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "store/audit.h"

namespace companyos::daemon::methods {

const MethodSpec kAudit{
    .name = "audit",
    .summary = "the newest audit rows: method, app, target role, outcome, error code, duration",
    .params = {{"limit", ParamType::kInteger, false, "rows to return, 1-1000 (default 50)"}},
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto limit = params.value("limit", std::int64_t{50});
      if (limit < 1 || limit > 1000) {
        return reply(make_error(ErrorCode::kInvalidArgs, "limit must be from 1 to 1000", {{"got", limit}}));
      }
      auto rows = ctx.audit.recent(static_cast<int>(limit));
      if (!rows) return reply(std::move(rows).take_error());
      reply(nlohmann::json{{"rows", std::move(*rows)}});
    },
};

}  // namespace companyos::daemon::methods
