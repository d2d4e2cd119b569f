#include "mcp/tools/daemon_reply.h"

#include "core/text.h"
#include "mcp/agent_words.h"

namespace companyos::mcp {

Error error_from_envelope(const nlohmann::json& envelope) {
  const nlohmann::json error = envelope.contains("error") && envelope["error"].is_object()
                                   ? envelope["error"] : nlohmann::json::object();
  const auto code = error_code_from_string(error.value("code", "INTERNAL")).value_or(ErrorCode::kInternal);
  return make_error(code, error.value("message", "the daemon refused without a message"),
                    error.contains("details") ? error["details"] : nlohmann::json::object(),
                    error.value("suggestion", ""),
                    error.value("retry", "safe") == "safe" ? Retry::kSafe : Retry::kUnsafe);
}

Error error_from_failure(const CallOutcome& outcome) {
  switch (outcome.failure) {
    case CallFailure::kUnreachable:
      return make_error(ErrorCode::kBusUnavailable, "the companyOS daemon is not reachable: " + outcome.detail, {},
                        "ask the person to start the companyOS daemon");
    case CallFailure::kTimeout:
      return make_error(ErrorCode::kTimeout, "the daemon did not answer in time: " + outcome.detail);
    case CallFailure::kCancelled:
      return make_error(ErrorCode::kTimeout, "the request was cancelled");
    case CallFailure::kBrokenReply:
    case CallFailure::kNone:
      break;
  }
  return make_error(ErrorCode::kInternal, "the daemon's reply was unreadable: " + outcome.detail);
}

Result<nlohmann::json> daemon_data(const CallOutcome& outcome) {
  if (outcome.failure != CallFailure::kNone) return error_from_failure(outcome);
  if (!outcome.envelope.value("ok", false)) return error_from_envelope(outcome.envelope);
  return outcome.envelope.contains("data") ? outcome.envelope["data"] : nlohmann::json::object();
}

nlohmann::json text_block(std::string text) {
  // Every text a model reads passes here, much of it an app's, a page's or a clipboard's:
  // controls and bidi overrides are shown as escapes, as a terminal would be shown them.
  return {{"type", "text"}, {"text", escape_for_terminal(text, true)}};
}

namespace {

ToolResult error_saying(std::string text, const Error& daemon_error) {
  const Error error = in_agent_words(daemon_error);
  text += error.message;
  if (!error.suggestion.empty()) text += ". " + error.suggestion;
  ToolResult result;
  result.is_error = true;
  result.content.push_back(text_block(std::move(text)));
  // No structuredContent: an error's shape is not the tool's output schema's.
  result.structured = nullptr;
  return result;
}

}  // namespace

ToolResult error_result(const Error& error) { return error_saying({}, error); }

ToolResult nothing_done(const Error& error) { return error_saying("Nothing was done: ", error); }

ToolResult launch_failed(const CallOutcome& reply, const Error& error, std::string_view tool) {
  const bool launched = reply.failure == CallFailure::kNone && error.retry == Retry::kUnsafe;
  if (!launched) return nothing_done(error);
  return error_saying("The launcher ran (" + std::string(tool) + ") but the launch did not check out: ", error);
}

}  // namespace companyos::mcp
