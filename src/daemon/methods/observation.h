// Shared by the observation methods: every one runs its accessibility and X11 calls on a
// worker under one deadline, so a hung app answers APP_UNRESPONSIVE and nothing else waits.
#pragma once

#include <chrono>
#include <functional>

#include "a11y/selection.h"
#include "core/deadline.h"
#include "daemon/context.h"
#include "daemon/method_table.h"

namespace companyos::daemon::methods {

using Observation = std::function<Result<nlohmann::json>(a11y::Observer&, Deadline)>;

// Reads app / window / title params into a query.
Result<a11y::WindowQuery> window_query_from(const nlohmann::json& params);

// Runs `work` on the worker pool with that deadline.
void run_observation(const nlohmann::json& params, DaemonContext& ctx, Reply reply, Observation work);

}  // namespace companyos::daemon::methods
