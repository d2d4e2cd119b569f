// Every tool's declaration, one for each line of tools.def (which tools.cpp expands into
// the table tools/list answers).
#pragma once

#include "mcp/tool.h"

namespace companyos::mcp::tools {

#define COMPANYOS_TOOL(Name) extern const ToolDeclaration k##Name;
#include "mcp/tools/tools.def"
#undef COMPANYOS_TOOL

}  // namespace companyos::mcp::tools
