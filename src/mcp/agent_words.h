// The daemon words its refusals for a person at a terminal ("repeat with --headed", "add
// --window ID with one of the candidates' ids", "take a new snapshot"); an agent has tools
// and arguments instead. Every error an agent reads passes here: the advice names MCP tools
// and arguments and lists the choices a refusal needs (window ids with titles; the twins'
// ancestors), and nothing of the CLI's (no --option, no `companyos` command) is left.
#pragma once

#include <string>

#include "companyos/result.h"

namespace companyos::mcp {

// The error with its message and suggestion in MCP words (code, details and retry kept).
Error in_agent_words(const Error& error);

// Whether a text still holds CLI words: an --option, a `companyos` command, or a CLI
// command whose name is no tool's (set-value, type-text, click-at, focus-window, …).
bool speaks_cli(const std::string& text);

}  // namespace companyos::mcp
