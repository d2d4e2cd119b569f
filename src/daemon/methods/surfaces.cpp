#include "daemon/methods/surfaces.h"

#include "a11y/observer.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "wire/a11y_replies.h"

namespace companyos::daemon::methods {

Result<std::optional<a11y::SurfaceKind>> surface_filter(const std::string& name, bool any_allowed) {
  if (any_allowed && name == "any") return std::optional<a11y::SurfaceKind>();
  if (auto kind = a11y::surface_kind_from(name)) return std::optional<a11y::SurfaceKind>(*kind);
  return make_error(ErrorCode::kInvalidArgs, "unknown surface kind \"" + name + "\"",
                    {{"got", name}}, any_allowed ? "use menu, list, tooltip or any" : "use menu, list or tooltip");
}

std::vector<a11y::OpenSurface> of_kind(std::vector<a11y::OpenSurface> open, std::optional<a11y::SurfaceKind> kind) {
  if (kind) std::erase_if(open, [&](const a11y::OpenSurface& s) { return s.surface.kind != *kind; });
  return open;
}

const MethodSpec kSurfaces{
    .decl = declared::kSurfaces,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      auto kind = params.contains("kind") ? surface_filter(params["kind"].get<std::string>(), false)
                                          : Result<std::optional<a11y::SurfaceKind>>(std::nullopt);
      if (!kind) return reply(std::move(kind).take_error());
      run_observation(params, ctx, std::move(reply),
                      [query = *query, kind = *kind](a11y::Observer& observer, Deadline deadline)
                          -> Result<nlohmann::json> {
                        auto open = observer.surfaces(query, deadline);
                        if (!open) return std::move(open).take_error();
                        nlohmann::json out = nlohmann::json::array();
                        for (const auto& surface : of_kind(std::move(open).value(), kind)) {
                          out.push_back(wire::surface_to_json(surface));
                        }
                        const auto count = out.size();
                        return nlohmann::json{{"count", count}, {"surfaces", std::move(out)}};
                      });
    },
};

}  // namespace companyos::daemon::methods
