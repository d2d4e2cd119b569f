#include "mcp/tools.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "mcp/tools/declarations.h"

namespace companyos::mcp {
namespace {

using methods::ParamType;

const ToolDeclaration* const kTools[] = {
#define COMPANYOS_TOOL(Name) &tools::k##Name,
#include "mcp/tools/tools.def"
#undef COMPANYOS_TOOL
};

nlohmann::json type_schema(ParamType type) {
  switch (type) {
    case ParamType::kString: return {{"type", "string"}};
    case ParamType::kInteger: return {{"type", "integer"}};
    case ParamType::kBoolean: return {{"type", "boolean"}};
    case ParamType::kObject: return {{"type", "object"}};
    case ParamType::kArray: return {{"type", "array"}};
    case ParamType::kAny: return nlohmann::json::object();
  }
  return nlohmann::json::object();
}

// "`seconds?` (1–30)", "`action` (list, get, …)": one argument as the table shows it.
std::string argument_cell(const methods::ParamSpec& param) {
  std::string cell = "`" + std::string(param.name) + (param.required ? "" : "?") + "`";
  if (param.range) {
    cell += " (" + std::to_string(param.range->min) +
            (param.range->max ? "–" + std::to_string(*param.range->max) : " or more") + ")";
  }
  if (param.length) cell += " (" + methods::length_text(*param.length) + ")";
  if (!param.choices.empty()) {
    std::string choices;
    for (std::string_view choice : param.choices) choices += (choices.empty() ? "" : " ") + std::string(choice);
    cell += " (`" + choices + "`)";
  }
  return cell;
}

// A table cell's text: a "|" would end the cell.
std::string cell_text(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string tools_markdown_table() {
  std::string table = "| tool | arguments | what the agent reads |\n|---|---|---|\n";
  for (const ToolDeclaration* tool : kTools) {
    std::string arguments;
    for (const methods::ParamSpec& param : tool_params(*tool)) {
      arguments += (arguments.empty() ? "" : ", ") + argument_cell(param);
    }
    table += "| `" + std::string(tool->name) + "` | " + (arguments.empty() ? "—" : arguments) + " | " +
             cell_text(tool->description) + " |\n";
  }
  return table;
}

std::span<const ToolDeclaration* const> all_tools() { return kTools; }

const ToolDeclaration* find_tool(std::string_view name) {
  auto it = std::find_if(std::begin(kTools), std::end(kTools), [&](const ToolDeclaration* t) { return t->name == name; });
  return it == std::end(kTools) ? nullptr : *it;
}

std::vector<methods::ParamSpec> tool_params(const ToolDeclaration& tool) {
  std::vector<methods::ParamSpec> params = tool.params;
  if (tool.wraps == nullptr) return params;
  for (methods::ParamSpec& param : params) {
    const methods::ParamSpec* declared = tool.wraps->param(param.name);
    if (declared == nullptr) continue;
    param.type = declared->type;
    param.required = param.required || declared->required;
    param.range = declared->range;
    param.length = declared->length;
    param.choices = declared->choices;
    param.items = declared->items;
    if (param.help.empty()) param.help = declared->help;
  }
  return params;
}

ToolAnnotations tool_annotations(const ToolDeclaration& tool) {
  ToolAnnotations annotations = tool.annotations;
  if (tool.wraps != nullptr) annotations.read_only = (tool.wraps->flags & methods::kFlagEffectful) == 0;
  return annotations;
}

nlohmann::json input_schema(const ToolDeclaration& tool) {
  nlohmann::json properties = nlohmann::json::object();
  nlohmann::json required = nlohmann::json::array();
  for (const methods::ParamSpec& param : tool_params(tool)) {
    nlohmann::json schema = type_schema(param.type);
    schema["description"] = methods::help_text(param);
    if (param.length && param.length->unit == methods::LengthUnit::kCharacters) schema["maxLength"] = param.length->max;
    if (param.range) {
      schema["minimum"] = param.range->min;
      if (param.range->max) schema["maximum"] = *param.range->max;
    }
    if (!param.choices.empty()) schema["enum"] = param.choices;
    if (param.items) schema["items"] = type_schema(*param.items);
    properties[std::string(param.name)] = std::move(schema);
    if (param.required) required.push_back(param.name);
  }
  nlohmann::json schema = {{"type", "object"}, {"properties", std::move(properties)},
                           {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

nlohmann::json describe_tool(const ToolDeclaration& tool) {
  const ToolAnnotations hints = tool_annotations(tool);
  nlohmann::json annotations = {{"readOnlyHint", hints.read_only}, {"openWorldHint", hints.open_world}};
  if (!hints.read_only) {
    annotations["destructiveHint"] = hints.destructive;
    annotations["idempotentHint"] = hints.idempotent;
  }
  return {{"name", tool.name},
          {"title", tool.title},
          {"description", tool.description},
          {"inputSchema", input_schema(tool)},
          {"outputSchema", nlohmann::json::parse(tool.output_schema)},
          {"annotations", std::move(annotations)}};
}

}  // namespace companyos::mcp
