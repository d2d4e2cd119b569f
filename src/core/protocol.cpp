#include "companyos/protocol.h"

namespace companyos::protocol {

std::string_view to_string(Origin origin) { return origin == Origin::kAgent ? "agent" : "person"; }

std::optional<Origin> origin_from_string(std::string_view name) {
  if (name == "person") return Origin::kPerson;
  if (name == "agent") return Origin::kAgent;
  return std::nullopt;
}

nlohmann::json make_request(const nlohmann::json& id, std::string_view method,
                            nlohmann::json params, Origin origin) {
  nlohmann::json request = {{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (origin != Origin::kPerson) request["origin"] = to_string(origin);
  return request;
}

nlohmann::json ok_envelope(const nlohmann::json& id, nlohmann::json data) {
  return {{"id", id}, {"ok", true}, {"data", std::move(data)}};
}

nlohmann::json error_envelope(const nlohmann::json& id, const ErrorBody& error) {
  nlohmann::json body = {
      {"code", to_string(error.code)},
      {"message", error.message},
      {"details", error.details.is_null() ? nlohmann::json::object() : error.details},
      {"retry", to_string(error.retry)},
  };
  if (!error.suggestion.empty()) body["suggestion"] = error.suggestion;
  return {{"id", id}, {"ok", false}, {"error", std::move(body)}};
}

std::string to_line(const nlohmann::json& envelope) {
  std::string line = envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  return line;
}

}  // namespace companyos::protocol
