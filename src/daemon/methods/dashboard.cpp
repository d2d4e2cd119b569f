#include "daemon/methods/dashboard.h"

#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "store/settings.h"
#include "web/dashboard.h"

namespace companyos::daemon::methods {

Result<std::uint16_t> serve_dashboard(DaemonContext& ctx, std::uint16_t port) {
  const auto pages = web::find_page_files();
  if (!pages) {
    return make_error(ErrorCode::kInternal,
                      "the dashboard's page files are neither beside companyosd (dashboard/) nor in "
                      "../share/companyos/dashboard",
                      {}, "reinstall companyOS, or build it again");
  }
  return ctx.dashboard.serve(port, *pages);
}

const MethodSpec kDashboard{
    .decl = declared::kDashboard,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      if (params.value("stop", false)) {
        ctx.dashboard.stop();
        return reply(nlohmann::json{{"serving", false}});
      }
      // The setting's port when there is one; else the one already served, else a free one.
      auto setting = ctx.settings.get("dashboard_port");
      if (!setting) return reply(std::move(setting).take_error());
      auto port = serve_dashboard(ctx, setting->get<std::uint16_t>());
      if (!port) return reply(std::move(port).take_error());
      auto link = ctx.dashboard.login_link();
      if (!link) return reply(std::move(link).take_error());
      reply(nlohmann::json{{"serving", true},
                           {"url", *link},
                           {"port", *port},
                           {"pages", ctx.dashboard.pages_dir().value_or("").string()}});
    },
};

}  // namespace companyos::daemon::methods
