// The params of the element actions as a11y's structs: what to act on, how, and what the
// caller expects. INVALID_ARGS names the bad param in details.param ("expect.<key>" inside
// an expectation); no value or text is ever echoed in an error.
#pragma once

#include <nlohmann/json.hpp>

#include "a11y/action_expectation.h"
#include "a11y/action_request.h"
#include "a11y/action_target.h"
#include "companyos/result.h"

namespace companyos::wire {

// A ref ("ref": "@s1a:e12", or "ref": "e12" with "snapshot": "s1a"), or a selector ("app",
// "role", "name", optional "id", "window", "title"). INVALID_ARGS when params hold
// neither or both forms, a key of the wrong type, an empty app, an unknown role name, a
// malformed ref or snapshot id, or a bare "eN" without "snapshot". Keys other than the
// target's are left to the caller.
Result<a11y::ActionTarget> parse_target(const nlohmann::json& params);

// From {"window": T} | {"state": S, "ref": R} | {"text": T}, each with an optional
// "timeout_ms" (1..60000, default 3000).
Result<a11y::Expectation> parse_expectation(const nlohmann::json& spec);

// The target, "strict", "secret", "expect", and per kind "value" (set-value: a string,
// or a number), "text" (type: non-empty) or "action" (action: a non-empty name).
Result<a11y::ActionRequest> parse_action_request(a11y::ActionKind kind, const nlohmann::json& params);

}  // namespace companyos::wire
