#include "mcp/jsonrpc.h"

#include "core/json_depth.h"
#include "companyos/protocol.h"

namespace companyos::mcp {
namespace {

Parsed refused(int code, std::string message, nlohmann::json id = nullptr) {
  Parsed parsed;
  parsed.error = RpcError{code, std::move(message), nullptr};
  parsed.id = std::move(id);
  return parsed;
}

bool is_valid_id(const nlohmann::json& id) {
  return id.is_string() || id.is_number_integer();
}

}  // namespace

Parsed parse_message(std::string_view line) {
  if (line.size() > kMaxMessageBytes) {
    return refused(kInvalidRequest, "message longer than " + std::to_string(kMaxMessageBytes) + " bytes");
  }
  if (json_nesting_depth(line) > protocol::kMaxJsonDepth) {
    return refused(kParseError, "message nested deeper than " + std::to_string(protocol::kMaxJsonDepth) + " levels");
  }
  nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  if (json.is_discarded()) return refused(kParseError, "not JSON");
  if (json.is_array()) return refused(kInvalidRequest, "batches are not supported: send one message per line");
  if (!json.is_object()) return refused(kInvalidRequest, "a message must be a JSON object");

  const nlohmann::json id = json.contains("id") ? json["id"] : nlohmann::json(nullptr);
  const nlohmann::json answerable_id = is_valid_id(id) ? id : nlohmann::json(nullptr);
  // Compared as JSON: a "jsonrpc" of another type is refused like a wrong version.
  const auto version = json.find("jsonrpc");
  if (version == json.end() || *version != "2.0") {
    return refused(kInvalidRequest, "\"jsonrpc\" must be \"2.0\"", answerable_id);
  }
  if (json.contains("id") && !is_valid_id(id)) {
    return refused(kInvalidRequest, "\"id\" must be a string or an integer");
  }

  Message message;
  message.id = answerable_id;
  if (!json.contains("method")) {
    if (json.contains("id") && (json.contains("result") || json.contains("error"))) {
      message.kind = Message::Kind::kResponse;
      Parsed parsed;
      parsed.message = std::move(message);
      return parsed;
    }
    return refused(kInvalidRequest, "a request needs \"method\"", answerable_id);
  }
  if (!json["method"].is_string()) return refused(kInvalidRequest, "\"method\" must be a string", answerable_id);
  message.method = json["method"].get<std::string>();
  if (json.contains("params")) {
    if (!json["params"].is_object()) {
      return refused(kInvalidParams, "\"params\" must be an object", answerable_id);
    }
    message.params = json["params"];
  }
  message.kind = json.contains("id") ? Message::Kind::kRequest : Message::Kind::kNotification;
  Parsed parsed;
  parsed.id = answerable_id;
  parsed.message = std::move(message);
  return parsed;
}

nlohmann::json result_reply(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json error_reply(const nlohmann::json& id, const RpcError& error) {
  nlohmann::json body = {{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) body["data"] = error.data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(body)}};
}

nlohmann::json notification(std::string_view method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

std::string to_line(const nlohmann::json& message) {
  return protocol::to_line(message);
}

}  // namespace companyos::mcp
