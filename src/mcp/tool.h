// An MCP tool is one declaration: name, title, description, its arguments (the same
// ParamSpec the protocol methods use, so one checker and one schema writer serve both),
// what its structured result holds, annotations and the handler; the protocol method it
// wraps, if any, which its params and annotations then follow. tools/tools.def lists them.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "companyos/method_declaration.h"
#include "core/daemon_client.h"

namespace companyos::mcp {

class ElementNumbers;

struct ToolAnnotations {
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  bool open_world = false;
};

struct ToolResult {
  std::vector<nlohmann::json> content;  // text and image blocks, in order
  nlohmann::json structured = nlohmann::json::object();  // null: no structuredContent
  bool is_error = false;
};

// What a handler may use: the daemon, the element numbers of this server, and progress
// reports to the caller. A fake in the unit tests answers with canned daemon replies.
class ToolContext {
 public:
  virtual ~ToolContext() = default;
  // One daemon request; a cancelled tool call ends it (kCancelled). each_second, when set,
  // runs about once a second while the reply is awaited (progress of a wait).
  virtual CallOutcome call(std::string_view method, const nlohmann::json& params,
                           std::chrono::milliseconds timeout, const std::function<void()>& each_second) = 0;
  CallOutcome call(std::string_view method, const nlohmann::json& params, std::chrono::milliseconds timeout) {
    return call(method, params, timeout, {});
  }
  // Sleeps unless the tool call is cancelled first; false when it was.
  virtual bool sleep(std::chrono::milliseconds duration) = 0;
  virtual ElementNumbers& numbers() = 0;
  // Sent only when the caller asked for progress (a progressToken); total 0: unknown.
  virtual void progress(double done, double total, const std::string& message) = 0;
};

// Sleeps until the duration passes or cancel_fd becomes readable; false when cancelled.
bool sleep_unless_cancelled(int cancel_fd, std::chrono::milliseconds duration);

struct ToolDeclaration {
  std::string_view name;
  std::string_view title;
  std::string_view description;
  // The protocol method the tool sends and answers with; nullptr for a tool of its own
  // (get_app_state reads several). A param the method declares too is checked and described
  // as the method declares it — type, requiredness, range, length, choices — in the tool's
  // own words when it gives help (tool_params); and the tool only reads when the method is
  // not effectful (tool_annotations).
  const methods::MethodDeclaration* wraps = nullptr;
  std::vector<methods::ParamSpec> params;
  // Property name → JSON Schema of what structuredContent holds (all optional but `required`).
  std::string_view output_schema;  // a JSON object literal, checked by a unit test
  ToolAnnotations annotations;
  ToolResult (*handler)(ToolContext& context, const nlohmann::json& arguments) = nullptr;
};

}  // namespace companyos::mcp
