// The tool table: every tool the server offers, in the deterministic order tools/list
// answers, and each tool as the protocol describes it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcp/tool.h"

namespace companyos::mcp {

std::span<const ToolDeclaration* const> all_tools();
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
