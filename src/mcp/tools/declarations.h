// Every tool's declaration; tools.cpp lists them in the order tools/list answers.
#pragma once

#include "mcp/tool.h"

namespace companyos::mcp::tools {

extern const ToolDeclaration kListApps;
extern const ToolDeclaration kListWindows;
extern const ToolDeclaration kGetAppState;
extern const ToolDeclaration kClick;
extern const ToolDeclaration kSetValue;
extern const ToolDeclaration kPerformAction;
extern const ToolDeclaration kType;
extern const ToolDeclaration kKeypress;
extern const ToolDeclaration kInsertText;
extern const ToolDeclaration kWait;
extern const ToolDeclaration kOpenUrl;
extern const ToolDeclaration kOpenApp;
extern const ToolDeclaration kAutomation;

}  // namespace companyos::mcp::tools
