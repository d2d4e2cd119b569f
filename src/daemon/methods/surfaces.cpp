#include "a11y/observer.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "daemon/wire/a11y_replies.h"

namespace companyos::daemon::methods {

const MethodSpec kSurfaces{
    .decl = declared::kSurfaces,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      auto kind = params.contains("kind") ? a11y::parse_surface_kind(params["kind"].get<std::string>(), "kind", false)
                                          : Result<std::optional<a11y::SurfaceKind>>(std::nullopt);
      if (!kind) return reply(std::move(kind).take_error());
      run_observation(params, ctx, std::move(reply),
                      [query = *query, kind = *kind](a11y::Observer& observer, Deadline deadline)
                          -> Result<nlohmann::json> {
                        auto open = observer.surfaces(query, deadline);
                        if (!open) return std::move(open).take_error();
                        nlohmann::json out = nlohmann::json::array();
                        for (const auto& surface : a11y::of_kind(std::move(open).value(), kind)) {
                          out.push_back(wire::surface_to_json(surface));
                        }
                        const auto count = out.size();
                        return nlohmann::json{{"count", count}, {"surfaces", std::move(out)}};
                      });
    },
};

}  // namespace companyos::daemon::methods
