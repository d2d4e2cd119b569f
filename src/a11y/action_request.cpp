#include "a11y/action_request.h"

#include "core/text.h"

namespace companyos::a11y {
namespace {

Error invalid(std::string message, const std::string& field) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"field", field}});
}

// Text that can travel as a D-Bus string: valid UTF-8 without NUL.
bool sendable_text(const std::string& text) {
  return is_valid_utf8_without_nul(text);
}

Result<bool> optional_flag(const nlohmann::json& params, const char* key) {
  const auto found = params.find(key);
  if (found == params.end() || found->is_null()) return false;
  if (!found->is_boolean()) return invalid(std::string(key) + " must be true or false", key);
  return found->get<bool>();
}

// The params key that carries the kind's argument, or nullptr when it takes none.
const char* argument_key(ActionKind kind) {
  switch (kind) {
    case ActionKind::kSetValue:
      return "value";
    case ActionKind::kType:
      return "text";
    case ActionKind::kNamed:
      return "action";
    default:
      return nullptr;
  }
}

Result<std::string> parse_argument(ActionKind kind, const nlohmann::json& params) {
  const char* key = argument_key(kind);
  for (const char* other : {"value", "text", "action"}) {
    if (params.contains(other) && (key == nullptr || std::string_view(other) != key)) {
      return invalid(std::string(other) + " does not belong to " + std::string(method_name(kind)),
                     other);
    }
  }
  if (key == nullptr) return std::string();
  const auto found = params.find(key);
  if (found == params.end()) {
    return invalid(std::string(method_name(kind)) + " needs " + key, key);
  }
  std::string argument;
  if (kind == ActionKind::kSetValue && found->is_number()) {
    argument = found->dump();
  } else if (found->is_string()) {
    argument = found->get<std::string>();
  } else {
    return invalid(std::string(key) + " must be a string", key);
  }
  // set-value "" clears a text; typing nothing or naming no action means nothing.
  if (kind != ActionKind::kSetValue && argument.empty()) {
    return invalid(std::string(key) + " must not be empty", key);
  }
  if (!sendable_text(argument)) {
    return invalid(std::string(key) + " must be UTF-8 text without NUL characters", key);
  }
  return argument;
}

}  // namespace

Result<ActionRequest> parse_action_request(ActionKind kind, const nlohmann::json& params) {
  if (!params.is_object()) return invalid("params must be an object", "params");
  auto target = parse_target(params);
  if (!target) return std::move(target).take_error();
  ActionRequest request;
  request.kind = kind;
  request.target = std::move(target).value();
  auto strict = optional_flag(params, "strict");
  if (!strict) return std::move(strict).take_error();
  request.strict = *strict;
  auto secret = optional_flag(params, "secret");
  if (!secret) return std::move(secret).take_error();
  request.secret = *secret;
  auto argument = parse_argument(kind, params);
  if (!argument) return std::move(argument).take_error();
  request.argument = std::move(argument).value();
  if (params.contains("expect") && !params["expect"].is_null()) {
    auto expectation = parse_expectation(params["expect"]);
    if (!expectation) return std::move(expectation).take_error();
    request.expect = std::move(expectation).value();
  }
  return request;
}

}  // namespace companyos::a11y
