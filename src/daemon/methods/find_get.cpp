#include "a11y/observer.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"

namespace companyos::daemon::methods {

const MethodSpec kFind{
    .name = "find",
    .summary = "elements of an app matching role, name and accessible id, with refs",
    .params = {{"app", ParamType::kString, true, "application name"},
               {"role", ParamType::kString, false, "role as printed, e.g. \"push button\""},
               {"name", ParamType::kString, false, "exact accessible name"},
               {"id", ParamType::kString, false, "exact accessible id"},
               {"window", ParamType::kString, false, "only this window id"},
               {"title", ParamType::kString, false, "only the window with this title"},
               {"ignore_case", ParamType::kBoolean, false, "compare role, name and id case-insensitively"},
               timeout_param()},
    .target = TargetKind::kApp,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      a11y::FindQuery query;
      query.target.app = params["app"].get<std::string>();
      if (params.contains("window")) query.target.window_id = params["window"].get<std::string>();
      if (params.contains("title")) query.target.title = params["title"].get<std::string>();
      if (params.contains("role")) query.role = params["role"].get<std::string>();
      if (params.contains("name")) query.name = params["name"].get<std::string>();
      if (params.contains("id")) query.accessible_id = params["id"].get<std::string>();
      query.ignore_case = params.value("ignore_case", false);
      if (!query.role && !query.name && !query.accessible_id) {
        return reply(make_error(ErrorCode::kInvalidArgs, "find needs at least one of role, name, id",
                                {}, "e.g. companyos find --app mousepad --role \"push button\""));
      }
      run_observation(params, ctx, std::move(reply), [query](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        auto found = observer.find(query, deadline);
        if (!found) return std::move(found).take_error();
        nlohmann::json elements = nlohmann::json::array();
        for (const auto& element : *found) elements.push_back(a11y::found_element_to_json(element));
        return nlohmann::json{{"count", elements.size()}, {"elements", std::move(elements)}};
      });
    },
};

const MethodSpec kGet{
    .name = "get",
    .summary = "one element, freshly read: role, name, value, states, actions, bounds, text",
    .params = {{"ref", ParamType::kString, true, "a ref from snapshot or find, e.g. @s3:e12"},
               timeout_param()},
    .target = TargetKind::kElement,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto ref = params["ref"].get<std::string>();
      run_observation(params, ctx, std::move(reply), [ref](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        auto details = observer.get(ref, deadline);
        if (!details) return std::move(details).take_error();
        return a11y::element_details_to_json(*details);
      });
    },
};

}  // namespace companyos::daemon::methods
