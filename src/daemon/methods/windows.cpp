#include "a11y/observer.h"
#include "daemon/wire/a11y_replies.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "desktop/window_resolver.h"
#include "x11/windows.h"

namespace companyos::daemon::methods {

const MethodSpec kWindows{
    .decl = declared::kWindows,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      std::optional<std::string> app;
      if (params.contains("app")) app = params["app"].get<std::string>();
      run_observation(params, ctx, std::move(reply), [app](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        std::size_t not_listed = 0;
        auto windows = observer.windows(app, deadline, &not_listed);
        if (!windows) return std::move(windows).take_error();
        const auto clients = x11::list_windows_if_any();
        nlohmann::json out = nlohmann::json::array();
        for (const auto& window : *windows) {
          auto json = wire::window_to_json(window);
          auto xid = desktop::match_x11_window(window, clients);
          json["x11_window"] = xid ? nlohmann::json(xid->id) : nlohmann::json(nullptr);
          out.push_back(std::move(json));
        }
        return nlohmann::json{{"windows", std::move(out)}, {"windows_not_listed", not_listed}};
      });
    },
};

}  // namespace companyos::daemon::methods
