#include <filesystem>

#include "a11y/observer.h"
#include "daemon/wire/a11y_replies.h"
#include "a11y/selection.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "desktop/target_window.h"
#include "store/database.h"
#include "x11/capture.h"
#include "x11/connection.h"
#include "x11/display_server.h"
#include "x11/windows.h"

namespace companyos::daemon::methods {
namespace {

Result<nlohmann::json> take_screenshot(x11::Connection& connection, const desktop::TargetWindow& target,
                                       const a11y::WindowQuery& query, const std::string& out) {
  const auto& window = target.window;
  const auto xid = target.xid;
  // Only the active window is guaranteed to be on top, so only its pixels are its own.
  auto active = x11::active_window(connection);
  if (!active) return std::move(active).take_error();
  if (*active != xid) {
    return make_error(ErrorCode::kPolicyDenied,
                      "window \"" + window.title + "\" is not the active window; another window could cover it",
                      {{"reason", "not_active"},
                       {"x11_window", xid},
                       {"active_x11_window", *active ? nlohmann::json(**active) : nlohmann::json(nullptr)}},
                      "bring it forward first (e.g. companyos focus-window --app " + query.app + ")");
  }
  auto bounds = x11::capture_window_png(connection, xid, out);
  if (!bounds) return std::move(bounds).take_error();
  return nlohmann::json{{"path", out},
                        {"width", bounds->width},
                        {"height", bounds->height},
                        {"bounds", {{"x", bounds->x}, {"y", bounds->y}, {"width", bounds->width}, {"height", bounds->height}}},
                        {"window", wire::window_to_json(window)},
                        {"x11_window", xid}};
}

}  // namespace

const MethodSpec kScreenshot{
    .decl = declared::kScreenshot,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      const auto out = params["out"].get<std::string>();
      const std::filesystem::path path(out);
      if (!path.is_absolute() || !path.has_filename()) {
        return reply(make_error(ErrorCode::kInvalidArgs, "out must be an absolute file path", {{"out", out}}));
      }
      if (store::is_store_file(ctx.db.path(), out)) {
        // Writing it would replace the store, and closing it would drop SQLite's locks.
        return reply(make_error(ErrorCode::kPolicyDenied, out + " is one of the daemon's store files",
                                {{"out", out}, {"param", "out"}, {"reason", "store_file"}},
                                "write the screenshot somewhere else"));
      }
      std::error_code ec;
      if (!std::filesystem::is_directory(path.parent_path(), ec)) {
        return reply(make_error(ErrorCode::kInvalidArgs, "no directory " + path.parent_path().string(),
                                {{"out", out}}));
      }
      run_observation(params, ctx, std::move(reply),
                      [query = *query, out](a11y::Observer& observer, Deadline deadline) {
                        return desktop::act_on_target_window(
                            "screenshot", observer, deadline, query,
                            [&](x11::Connection& connection, const desktop::TargetWindow& target) {
                              return take_screenshot(connection, target, query, out);
                            });
                      });
    },
};

}  // namespace companyos::daemon::methods
