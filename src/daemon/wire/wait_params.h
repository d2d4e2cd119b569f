// The `wait` method's params as one a11y::WaitCondition and its timeout. Exactly one
// condition form: `window` (a title to appear), `closed` (optionally with `title`), `text`,
// or `ref` (with `predicate`, default exists, and `value`); INVALID_ARGS names the conflict.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "a11y/wait.h"
#include "companyos/methods.h"
#include "companyos/result.h"

namespace companyos::wire {

struct WaitRequest {
  a11y::WaitCondition condition;
  std::chrono::milliseconds timeout = ::companyos::methods::kDefaultWaitTimeout;
  // For an element wait, the app the caller named, if any: the ref must belong to it.
  std::optional<std::string> app;
};

// params have passed the method's declaration (types and the timeout's range are right).
// Besides the form rules: INVALID_ARGS for whatever a11y::validate_condition
// refuses (POLICY_DENIED for a password manager).
Result<WaitRequest> parse_wait_request(const nlohmann::json& params);

}  // namespace companyos::wire
