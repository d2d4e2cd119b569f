// A batch's steps, checked before any of them runs: [{"command": C, "args": {…}}, …] with
// at most kMaxBatchSteps steps, each command an action (element actions, press,
// focus-window, close-window; CLI or protocol spelling) whose args fit its schema.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "companyos/result.h"
#include "daemon/method_table.h"

namespace companyos::daemon::methods {

inline constexpr std::size_t kMaxBatchSteps = 100;

struct BatchStep {
  std::string command;  // as the caller wrote it
  const MethodSpec* spec = nullptr;
  nlohmann::json args = nlohmann::json::object();
};

// INVALID_ARGS with details.step (0-based) for a step that is not an object, an unknown or
// missing command, a nested batch, args that are not an object or do not fit the method's
// schema; and for an empty list or more than kMaxBatchSteps steps.
Result<std::vector<BatchStep>> plan_batch(const nlohmann::json& steps, const MethodTable& table);

}  // namespace companyos::daemon::methods
