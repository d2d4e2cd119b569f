#include "daemon/server/request.h"

#include "companyos/protocol.h"
#include "core/json_depth.h"
#include "core/text.h"

namespace companyos::daemon {
namespace {

RequestError bad(nlohmann::json id, std::string message, std::string suggestion = {},
                 nlohmann::json details = nlohmann::json::object()) {
  return RequestError{std::move(id), make_error(ErrorCode::kInvalidArgs, std::move(message),
                                                std::move(details), std::move(suggestion))};
}

constexpr const char* kShape = R"(send one JSON object per line: {"id":1,"method":"ping","params":{}})";

}  // namespace

std::variant<Request, RequestError> parse_request(const FramedLine& line) {
  if (line.oversize) {
    return bad(nullptr, "request line longer than " + std::to_string(protocol::kMaxLineBytes) +
                            " bytes", "split the work into smaller requests");
  }
  if (!is_valid_utf8_without_nul(line.text)) {
    return bad(nullptr, "request is not valid UTF-8", kShape);
  }
  // Checked on the raw text: the parse itself is iterative, but every later copy, compare
  // and dump of the document recurses per level, and 100,000 levels overflow the stack.
  if (json_nesting_depth(line.text) > protocol::kMaxJsonDepth) {
    const std::string limit = std::to_string(protocol::kMaxJsonDepth);
    return bad(nullptr, "request nests arrays and objects deeper than " + limit + " levels",
               "send flatter data (at most " + limit + " levels, the request object included)",
               {{"max_depth", protocol::kMaxJsonDepth}});
  }
  auto doc = nlohmann::json::parse(line.text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return bad(nullptr, "request is not valid JSON", kShape);
  if (!doc.is_object()) return bad(nullptr, "request must be a JSON object", kShape);

  nlohmann::json id = doc.contains("id") ? doc["id"] : nlohmann::json(nullptr);
  if (!(id.is_null() || id.is_string() || id.is_number())) {
    return bad(nullptr, "\"id\" must be a string, a number or null", kShape);
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "id" && key != "method" && key != "params" && key != "origin") {
      return bad(id, "unknown request field \"" + key + "\"", kShape);
    }
    (void)value;
  }
  if (!doc.contains("method")) return bad(id, "missing \"method\"", kShape);
  if (!doc["method"].is_string()) return bad(id, "\"method\" must be a string", kShape);

  Request request;
  request.id = std::move(id);
  request.method = doc["method"].get<std::string>();
  if (doc.contains("params") && !doc["params"].is_null()) {
    if (!doc["params"].is_object()) return bad(request.id, "\"params\" must be an object", kShape);
    request.params = std::move(doc["params"]);
  }
  if (doc.contains("origin")) {
    const auto origin = doc["origin"].is_string()
                            ? protocol::origin_from_string(doc["origin"].get_ref<const std::string&>())
                            : std::nullopt;
    if (!origin) return bad(request.id, "\"origin\" must be \"person\" or \"agent\"", kShape);
    request.origin = *origin;
  }
  return request;
}

}  // namespace companyos::daemon
