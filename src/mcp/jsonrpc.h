// JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line, no batches.
// A line is classified into a request, a notification or a response, or into the error
// reply it deserves (-32700 unparseable, -32600 not a request).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace companyos::mcp {

enum RpcCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kUnsupportedProtocolVersion = -32022,
};

// A line longer than this is refused whole (its id is never read).
inline constexpr std::size_t kMaxMessageBytes = 4 * 1024 * 1024;

struct RpcError {
  int code = kInternalError;
  std::string message;
  nlohmann::json data = nullptr;  // omitted from the reply when null
};

struct Message {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kRequest;
  nlohmann::json id = nullptr;  // string or integer; null for notifications
  std::string method;
  nlohmann::json params = nlohmann::json::object();  // always an object
};

// Either a message, or the error to answer with (and the id it answers, null when the
// line's id could not be read).
struct Parsed {
  std::optional<Message> message;
  std::optional<RpcError> error;
  nlohmann::json id = nullptr;
};

Parsed parse_message(std::string_view line);

nlohmann::json result_reply(const nlohmann::json& id, nlohmann::json result);
nlohmann::json error_reply(const nlohmann::json& id, const RpcError& error);
nlohmann::json notification(std::string_view method, nlohmann::json params);

// One line, newline included; invalid UTF-8 in strings is replaced, never thrown on.
std::string to_line(const nlohmann::json& message);

}  // namespace companyos::mcp
