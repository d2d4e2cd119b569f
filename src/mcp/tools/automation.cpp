// automation: the levelled automations as seeds/002's agent surface has them — list, read,
// write, switch on and off, start and stop, and read runs. Raising a level, promoting and
// approving stay with the person (the CLI and the dashboard): autonomy is earned by
// evidence and granted by a person, never by the agent it would free.
#include <algorithm>
#include <array>

#include "mcp/tools/daemon_reply.h"
#include "mcp/tools/declarations.h"

namespace companyos::mcp::tools {
namespace {

using methods::IntRange;
using methods::ParamType;

struct Mapping {
  std::string_view action;
  std::string_view method;
  bool needs_id;
  bool needs_definition;
};

constexpr std::array<Mapping, 11> kMappings = {{
    {"list", "automation.list", false, false},
    {"get", "automation.get", true, false},
    {"create", "automation.create", false, true},
    {"update", "automation.update", true, true},
    {"delete", "automation.delete", true, false},
    {"enable", "automation.enable", true, false},
    {"disable", "automation.disable", true, false},
    {"start", "automation.start", true, false},
    {"stop", "automation.stop", true, false},
    {"runs", "automation.runs", true, false},
    {"run", "run.show", false, false},
}};

constexpr std::chrono::milliseconds kAutomationTimeout{30000};
constexpr std::size_t kTextCap = 20000;  // characters of JSON shown as text; the rest is in structuredContent

ToolResult automation(ToolContext& context, const nlohmann::json& arguments) {
  const std::string action = arguments["action"].get<std::string>();
  const auto mapping = std::find_if(kMappings.begin(), kMappings.end(),
                                    [&](const Mapping& m) { return m.action == action; });
  nlohmann::json params = nlohmann::json::object();
  if (mapping->needs_id) {
    if (!arguments.contains("id")) {
      return error_result(make_error(ErrorCode::kInvalidArgs, "automation " + action + " needs id",
                                     {}, "action list shows the ids"));
    }
    params["id"] = arguments["id"];
  }
  if (mapping->needs_definition) {
    if (!arguments.contains("automation")) {
      return error_result(make_error(ErrorCode::kInvalidArgs, "automation " + action +
                                                                  " needs automation (the whole definition)"));
    }
    params["definition"] = arguments["automation"];
  }
  if (action == "run") {
    if (!arguments.contains("runId")) {
      return error_result(make_error(ErrorCode::kInvalidArgs, "automation run needs runId", {},
                                     "action runs lists an automation's runs"));
    }
    params["id"] = arguments["runId"];
  }
  auto data = daemon_data(context.call(mapping->method, params, kAutomationTimeout));
  if (!data) {
    ToolResult refused = error_result(data.error());
    // A definition's problems are the answer the agent needs to fix it: name each path.
    const nlohmann::json problems = data.error().details.value("problems", nlohmann::json::array());
    for (const nlohmann::json& problem : problems) {
      refused.content.push_back(text_block(problem.value("path", "") + ": " + problem.value("message", "")));
    }
    return refused;
  }
  std::string text = data->dump(2);
  if (text.size() > kTextCap) text = text.substr(0, kTextCap) + "\n… (cut; structuredContent holds all of it)";
  ToolResult result;
  result.content.push_back(text_block(std::move(text)));
  result.structured = *data;
  return result;
}

}  // namespace

const ToolDeclaration kAutomation{
    .name = "automation",
    .title = "Levelled automations",
    .description =
        "The person's levelled automations: list, get, create, update, delete, enable, disable, start, stop, "
        "runs (of one automation) and run (one run with its steps). A new automation starts at level 1 (dry "
        "run); only the person raises levels, promotes and approves.",
    .params = {{.name = "action", .required = true, .help = "what to do",
                .choices = {"list", "get", "create", "update", "delete", "enable", "disable", "start", "stop",
                            "runs", "run"}},
               {.name = "id", .type = ParamType::kInteger, .help = "the automation's id (every action but list, "
                                                                   "create and run)",
                .range = IntRange{1, {}}},
               {.name = "automation", .type = ParamType::kObject,
                .help = "create, update: the whole definition (docs/automations.md)"},
               {.name = "runId", .type = ParamType::kInteger, .help = "run: the run's id", .range = IntRange{1, {}}}},
    .output_schema = R"({"type":"object"})",
    .annotations = {.destructive = true},
    .handler = automation,
};

}  // namespace companyos::mcp::tools
