// The tool table: every tool the server offers, in the deterministic order tools/list
// answers, and each tool as the protocol describes it.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp/tool.h"

namespace companyos::mcp {

std::span<const ToolDeclaration* const> all_tools();

// The tool's params as callers see them: those the wrapped method declares too take the
// method's type, range, length, choices and item type, and are required when either says
// so; help is the tool's when it gives one, else the method's. The rest are the tool's own.
std::vector<methods::ParamSpec> tool_params(const ToolDeclaration& tool);
// The annotations as declared, with readOnlyHint the wrapped method's (not effectful).
ToolAnnotations tool_annotations(const ToolDeclaration& tool);
const ToolDeclaration* find_tool(std::string_view name);

// {name, title, description, inputSchema, outputSchema, annotations}; the input schema is
// written from the params (JSON Schema 2020-12, additionalProperties false).
nlohmann::json describe_tool(const ToolDeclaration& tool);
nlohmann::json input_schema(const ToolDeclaration& tool);

// The tool table of docs/mcp.md (Markdown, one row a tool: its arguments as declared and
// the description an agent reads); `companyos mcp --tools-markdown` prints it and a test
// holds the file to it.
std::string tools_markdown_table();

}  // namespace companyos::mcp
