// open_link, open_file, open_app and entries: opening a target (or nothing) in a named app through its desktop
// entry and `gio launch`, and explaining how a name resolves.
#include "daemon/context.h"
#include "companyos/reply_fields.h"
#include "daemon/methods/methods.h"
#include "daemon/server/worker_pool.h"
#include "launch/default_app.h"
#include "launch/launch_step.h"
#include "launch/launcher.h"

namespace companyos::daemon::methods {
namespace {

// A step runs gio (up to 8 s) and waits for the window (up to 10 s): on a worker.
// A link with no app named opens in the desktop's default app for its scheme
// (launch/default_app.h), which then passes every rule a named app does.
void run_launch(const nlohmann::json& params, DaemonContext& ctx, Reply reply, launch::TargetKind kind) {
  std::optional<std::string> app;
  if (params.contains("app")) app = params["app"].get<std::string>();
  launch::Target target{kind, {}};
  if (kind == launch::TargetKind::kLink) target.value = params["url"].get<std::string>();
  if (kind == launch::TargetKind::kFile) target.value = params["path"].get<std::string>();
  ctx.workers.run(
      [app, target]() -> Result<nlohmann::json> {
        auto named = app ? Result<std::string>(*app) : launch::default_app_for_link(target.value);
        if (!named) return std::move(named).take_error();
        auto report = launch::run_launch_step(*named, target);
        if (!report) return std::move(report).take_error();
        if (auto st = launch::report_status(*report); !st) return std::move(st).take_error();
        auto data = launch::to_json(*report);
        if (!app) data["default_app"] = *named;
        data[reply_fields::outcome::kDelivery] = "delivered_verified";  // the app's window was seen in front
        return data;
      },
      std::move(reply));
}

}  // namespace

const MethodSpec kOpenLink{
    .decl = declared::kOpenLink,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_launch(params, ctx, std::move(reply), launch::TargetKind::kLink);
    },
};

const MethodSpec kOpenFile{
    .decl = declared::kOpenFile,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_launch(params, ctx, std::move(reply), launch::TargetKind::kFile);
    },
};

const MethodSpec kOpenApp{
    .decl = declared::kOpenApp,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_launch(params, ctx, std::move(reply), launch::TargetKind::kApp);
    },
};

const MethodSpec kEntries{
    .decl = declared::kEntries,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto name = params["match"].get<std::string>();
      ctx.workers.run([name]() -> Result<nlohmann::json> { return launch::explain_app_name(name); },
                      std::move(reply));
    },
};

}  // namespace companyos::daemon::methods
