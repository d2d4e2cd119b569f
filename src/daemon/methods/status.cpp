#include <unistd.h>

#include "core/version.h"
#include "desktop/session_probe.h"
#include "daemon/server/worker_pool.h"
#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "store/database.h"
#include "store/settings.h"
#include "daemon/wire/session_replies.h"

namespace companyos::daemon::methods {

const MethodSpec kStatus{
    .decl = declared::kStatus,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      auto uptime = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::steady_clock::now() - ctx.started);
      auto settings = ctx.settings.all();
      if (!settings) return reply(std::move(settings).take_error());
      nlohmann::json data = {
          {"version", kVersion},
          {"pid", ::getpid()},
          {"uptime_ms", uptime.count()},
          {"socket", ctx.socket_path},
          {"store",
           {{"path", ctx.db.path()},
            {"schema_version", ctx.db.schema_version()},
            {"writable", ctx.db.writable()},
            // What is wrong and what to do, when the store cannot be written.
            {"problem", ctx.db.writable() ? nlohmann::json(nullptr)
                                          : nlohmann::json(ctx.db.read_only_reason() +
                                                           "; every change is refused until it is writable "
                                                           "and companyosd restarted")}}},
          {"physical_input", (*settings)["physical_input"]},
      };
      // The bus and X11 probes can block on a wedged server: they run on a worker.
      a11y::Observer& observer = ctx.observer;
      ctx.workers.run(
          [&observer, data = std::move(data)]() mutable -> Result<nlohmann::json> {
            data.update(wire::session_facts_to_json(
                desktop::probe_session(observer, std::chrono::milliseconds(1500))));
            return data;
          },
          std::move(reply));
    },
};

}  // namespace companyos::daemon::methods
