// Shared by the observation methods: every one runs its accessibility and X11 calls on a
// worker under one deadline, so a hung app answers APP_UNRESPONSIVE and nothing else waits.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "a11y/selection.h"
#include "a11y/snapshot_store.h"
#include "core/deadline.h"
#include "daemon/context.h"
#include "daemon/method_table.h"

namespace companyos::daemon::methods {

using Observation = std::function<Result<nlohmann::json>(a11y::Observer&, Deadline)>;

// Reads app / window / title params into a query.
Result<a11y::WindowQuery> window_query_from(const nlohmann::json& params);

// The worker pool's lane of a request (server/lanes.h): its app, named by "app" or by the
// snapshot of its "ref"; "" when it names no one app (apps, windows, status).
std::string lane_of(const nlohmann::json& params, const a11y::SnapshotStore& snapshots);

// Runs `work` on the worker pool with that deadline, in the request's lane.
void run_observation(const nlohmann::json& params, DaemonContext& ctx, Reply reply, Observation work);

}  // namespace companyos::daemon::methods
