// Turns one framed line into a request envelope, or into the INVALID_ARGS reply it earns.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "companyos/result.h"
#include "daemon/server/line_framer.h"

namespace companyos::daemon {

struct Request {
  nlohmann::json id;  // echoed verbatim; null when the request had none
  std::string method;
  nlohmann::json params = nlohmann::json::object();
  protocol::Origin origin = protocol::Origin::kPerson;
};

struct RequestError {
  nlohmann::json id;  // best effort: the id when the line was a JSON object that had one
  Error error;
};

// Checks size, UTF-8, JSON syntax, object shape, id type, method and params presence.
// The method's existence and its params schema are checked by the method table.
std::variant<Request, RequestError> parse_request(const FramedLine& line);

}  // namespace companyos::daemon
