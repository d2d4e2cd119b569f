// A daemon reply as a tool sees it: its data, or an Error that says what happened (the
// daemon's own error, or why no reply came); and the tool result an error becomes.
#pragma once

#include <chrono>
#include <string_view>

#include <nlohmann/json.hpp>

#include "companyos/result.h"
#include "mcp/tool.h"

namespace companyos::mcp {

inline constexpr std::chrono::milliseconds kReadTimeout{15000};

Error error_from_envelope(const nlohmann::json& envelope);
Error error_from_failure(const CallOutcome& outcome);
// The reply's data, or the error; a cancelled call is kCancelled's detail as INTERNAL.
Result<nlohmann::json> daemon_data(const CallOutcome& outcome);

// A text content block; controls in the text are shown escaped (core/text.h).
nlohmann::json text_block(std::string text);
// isError and a text the model can act on ("<message>. <suggestion>"), without
// structuredContent (clients check it against the tool's output schema).
ToolResult error_result(const Error& error);
// The same for a refusal that delivered nothing: the text starts "Nothing was done: ".
ToolResult nothing_done(const Error& error);
// A launch (open_link, open_app) that failed: refused before it started, nothing was done;
// after it (an unsafe retry), the launcher ran and the app may be starting — the text says
// so, naming `tool`.
ToolResult launch_failed(const CallOutcome& reply, const Error& error, std::string_view tool);

}  // namespace companyos::mcp
