#include "a11y/observer.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "wire/a11y_replies.h"

namespace companyos::daemon::methods {

const MethodSpec kFind{
    .decl = declared::kFind,
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
        for (const auto& element : *found) elements.push_back(wire::found_element_to_json(element));
        return nlohmann::json{{"count", elements.size()}, {"elements", std::move(elements)}};
      });
    },
};

const MethodSpec kGet{
    .decl = declared::kGet,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto ref = params["ref"].get<std::string>();
      run_observation(params, ctx, std::move(reply), [ref](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        auto details = observer.get(ref, deadline);
        if (!details) return std::move(details).take_error();
        return wire::element_details_to_json(*details);
      });
    },
};

}  // namespace companyos::daemon::methods
