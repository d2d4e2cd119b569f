#include "a11y/cell_address.h"
#include "a11y/cells.h"
#include "a11y/observer.h"
#include "a11y/ref.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "daemon/wire/a11y_replies.h"
#include "daemon/wire/action_params.h"

namespace companyos::daemon::methods {
namespace {

// PARSED, its refusal naming the param it came from.
template <typename T>
Result<T> from_param(Result<T> parsed, const char* param) {
  if (parsed) return parsed;
  Error error = std::move(parsed).take_error();
  error.details["param"] = param;
  return error;
}

}  // namespace

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
      if (params.contains("cell")) {
        auto cell = from_param(a11y::parse_cell_address(params["cell"].get<std::string>()), "cell");
        if (!cell) return reply(std::move(cell).take_error());
        query.cell = *cell;
      }
      if (!query.role && !query.name && !query.accessible_id && !query.cell) {
        return reply(make_error(ErrorCode::kInvalidArgs, "find needs at least one of role, name, id, cell",
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

namespace {

// get --cell / --cells: the cell or range of the table the ref or app names.
void get_cells(const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
  nlohmann::json target_params = {{"cell", params.value("cell", "")}};
  if (params.contains("ref")) target_params["ref"] = params["ref"];
  if (params.contains("app")) target_params["app"] = params["app"];
  std::optional<a11y::CellRange> range;
  if (params.contains("cells")) {
    auto parsed = from_param(a11y::parse_cell_range(params["cells"].get<std::string>()), "cells");
    if (!parsed) return reply(std::move(parsed).take_error());
    range = *parsed;
    target_params["cell"] = a11y::to_string(range->first);
  }
  auto target = wire::parse_target(target_params);
  if (!target) return reply(std::move(target).take_error());
  run_observation(params, ctx, std::move(reply),
                  [target = *target, range](a11y::Observer& observer, Deadline deadline) -> Result<nlohmann::json> {
                    if (range) {
                      auto rows = a11y::get_cells(observer, target, *range, deadline);
                      if (!rows) return std::move(rows).take_error();
                      return wire::cell_rows_to_json(*rows);
                    }
                    auto details = a11y::get_cell(observer, target, deadline);
                    if (!details) return std::move(details).take_error();
                    return wire::element_details_to_json(*details);
                  });
}

}  // namespace

const MethodSpec kGet{
    .decl = declared::kGet,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      if (params.contains("cell") || params.contains("cells")) return get_cells(params, ctx, std::move(reply));
      if (!params.contains("ref")) {
        return reply(make_error(ErrorCode::kInvalidArgs, "get needs a ref, or a cell or cells of a table",
                                {{"param", "ref"}}, "e.g. companyos get @s3:e12, or companyos get --app soffice --cell B3"));
      }
      if (params.contains("app")) {
        return reply(make_error(ErrorCode::kInvalidArgs, "app goes with cell or cells; a ref names its own app",
                                {{"param", "app"}}, "drop app, or add --cell"));
      }
      const auto ref = params["ref"].get<std::string>();
      run_observation(params, ctx, std::move(reply), [ref](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        // A cell of a table read by what it showed: through its table and address, with its
        // formula.
        const auto parsed = a11y::parse_ref(ref);
        const auto stored = parsed ? observer.store().lookup(*parsed) : Result<a11y::StoredElement>(parsed.error());
        auto details = stored && stored->node->cell
                           ? a11y::get_cell(observer, a11y::RefTarget{a11y::format_ref(parsed->snapshot_id, parsed->index)},
                                            deadline)
                           : observer.get(ref, deadline);
        if (!details) return std::move(details).take_error();
        return wire::element_details_to_json(*details);
      });
    },
};

}  // namespace companyos::daemon::methods
