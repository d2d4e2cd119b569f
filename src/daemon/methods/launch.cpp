// open_link, open_file and entries: opening a target in a named app through its desktop
// entry and `gio launch`, and explaining how a name resolves.
#include "daemon/audited_reply.h"
#include "daemon/methods/methods.h"
#include "daemon/worker_pool.h"
#include "launch/launch_step.h"
#include "launch/launcher.h"

namespace companyos::daemon::methods {
namespace {

// A step runs gio (up to 8 s) and waits for the window (up to 10 s): on a worker.
void run_launch(const nlohmann::json& params, DaemonContext& ctx, Reply reply, launch::TargetKind kind,
                const char* method) {
  const auto app = params["app"].get<std::string>();
  launch::Target target{kind, params[kind == launch::TargetKind::kLink ? "url" : "path"].get<std::string>()};
  reply = audited_reply(ctx, method, app, std::move(reply));
  ctx.workers.run(
      [app, target]() -> Result<nlohmann::json> {
        auto report = launch::run_launch_step(app, target);
        if (!report) return std::move(report).take_error();
        if (auto st = launch::report_status(*report); !st) return std::move(st).take_error();
        auto data = launch::to_json(*report);
        data["delivery"] = "delivered_verified";  // the app's window was seen in front
        return data;
      },
      std::move(reply));
}

}  // namespace

const MethodSpec kOpenLink{
    .name = "open_link",
    .summary = "open a URL in the named app (desktop entry + gio launch), then check it is in front",
    .params = {{"url", ParamType::kString, true, "http(s) URL, or a scheme the entry declares"},
               {"app", ParamType::kString, true, "WM class, desktop-file id or Name of the app"}},
    .target = TargetKind::kApp,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_launch(params, ctx, std::move(reply), launch::TargetKind::kLink, "open_link");
    },
};

const MethodSpec kOpenFile{
    .name = "open_file",
    .summary = "open an existing file in the named app (desktop entry + gio launch), then check it is in front",
    .params = {{"path", ParamType::kString, true, "absolute path or file:// URI"},
               {"app", ParamType::kString, true, "WM class, desktop-file id or Name of the app"}},
    .target = TargetKind::kApp,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_launch(params, ctx, std::move(reply), launch::TargetKind::kFile, "open_file");
    },
};

const MethodSpec kEntries{
    .name = "entries",
    .summary = "how an app name resolves to a desktop entry: deciding field, candidates, refusals",
    .params = {{"match", ParamType::kString, true, "the app name a step would use"}},
    .target = TargetKind::kApp,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto name = params["match"].get<std::string>();
      ctx.workers.run([name]() -> Result<nlohmann::json> { return launch::explain_app_name(name); },
                      std::move(reply));
    },
};

}  // namespace companyos::daemon::methods
