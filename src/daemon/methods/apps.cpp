#include "a11y/observer.h"
#include "a11y/render.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "launch/app_match.h"
#include "launch/desktop_index.h"
#include "wire/a11y_replies.h"

namespace companyos::daemon::methods {

const MethodSpec kApps{
    .decl = declared::kApps,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_observation(params, ctx, std::move(reply), [](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        auto apps = observer.apps(deadline);
        if (!apps) return std::move(apps).take_error();
        // The entry a launch step naming this app would use, where exactly one matches.
        const auto index = launch::DesktopIndex::load();
        nlohmann::json out = nlohmann::json::array();
        for (const auto& app : *apps) {
          auto json = wire::app_to_json(app);
          const auto match = launch::match_app(index, app.name);
          json["desktop_entry"] = match.chosen ? nlohmann::json(match.chosen->entry.id) : nlohmann::json(nullptr);
          out.push_back(std::move(json));
        }
        return nlohmann::json{{"apps", std::move(out)}};
      });
    },
};

}  // namespace companyos::daemon::methods
