// The first line of every action's answer: exactly how sure the server is of the effect.
//   Done (set_value), and read back.                                — delivered_verified
//   The element's own action ran (click); nothing confirmed the effect.  — semantic, unverified
//   Input was posted (keypress ctrl+s); nothing confirmed the effect.    — physical input
//   Nothing was done: <reason>. <what to do>                         — not_delivered (an error)
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace companyos::mcp {

struct ActionOutcome {
  std::string line;
  std::string delivery;  // not_delivered, delivered_unverified, delivered_verified
  bool verified = false;
  std::string route;
  std::string error_code;  // empty when the daemon answered ok
  bool is_error = false;
};

// From the daemon's reply envelope to an action; `what` names the action in the line,
// e.g. "click" or "keypress ctrl+s".
ActionOutcome describe_outcome(std::string_view what, const nlohmann::json& envelope);

}  // namespace companyos::mcp
