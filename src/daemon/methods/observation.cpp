#include "daemon/methods/observation.h"

#include "a11y/observer.h"
#include "a11y/ref.h"
#include "core/text.h"
#include "daemon/server/worker_pool.h"

namespace companyos::daemon::methods {

Result<a11y::WindowQuery> window_query_from(const nlohmann::json& params) {
  a11y::WindowQuery query;
  query.app = params["app"].get<std::string>();
  if (params.contains("window")) query.window_id = params["window"].get<std::string>();
  if (params.contains("title")) query.title = params["title"].get<std::string>();
  return query;
}

std::string lane_of(const nlohmann::json& params, const a11y::SnapshotStore& snapshots) {
  std::string app;
  if (const auto named = params.find("app"); named != params.end() && named->is_string()) {
    app = named->get<std::string>();
  } else if (const auto ref = params.find("ref"); ref != params.end() && ref->is_string()) {
    std::string snapshot_id;
    if (auto parsed = a11y::parse_ref(ref->get<std::string>())) {
      snapshot_id = parsed->snapshot_id;
    } else if (const auto snapshot = params.find("snapshot"); snapshot != params.end() && snapshot->is_string()) {
      snapshot_id = snapshot->get<std::string>();
    }
    if (auto stored = snapshot_id.empty() ? nullptr : snapshots.get(snapshot_id)) app = stored->app_name;
  }
  if (app.empty()) return {};
  // App names match case-insensitively, so "Gedit" and "gedit" share a lane.
  return "app:" + ascii_lowercase(app);
}

namespace {

// A request that spent its whole timeout waiting for a worker: behind earlier requests about
// the same app that have not come back (the app is not answering), or behind a full pool.
Error waited_out(const std::string& lane, Deadline arrived) {
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - arrived);
  if (lane.starts_with("app:")) {
    const std::string app = lane.substr(4);
    return make_error(ErrorCode::kAppUnresponsive,
                      "app " + app + " has not answered the requests before this one; it waited its whole timeout",
                      {{"app", app}, {"reason", "queued_behind_unanswered_requests"}, {"waited_ms", waited.count()}},
                      "the app may be busy or stopped; try again later", Retry::kSafe);
  }
  return make_error(ErrorCode::kTimeout, "every worker was busy until this request's timeout",
                    {{"reason", "workers_busy"}, {"waited_ms", waited.count()}}, "try again, or give a longer --timeout",
                    Retry::kSafe);
}

}  // namespace

void run_observation(const nlohmann::json& params, DaemonContext& ctx, Reply reply, Observation work) {
  // The declaration has bounded timeout_ms already.
  const std::chrono::milliseconds timeout{
      params.value("timeout_ms", std::int64_t{declared::kDefaultObservationTimeout.count()})};
  a11y::Observer& observer = ctx.observer;
  // The deadline runs from arrival: time spent waiting in the app's lane counts, so a
  // request about a hung app answers within its timeout however many are queued before it.
  const Deadline deadline = std::chrono::steady_clock::now() + timeout;
  std::string lane = lane_of(params, observer.store());
  ctx.workers.run(
      [&observer, work = std::move(work), deadline, timeout, lane]() -> Result<nlohmann::json> {
        // Nothing was sent, so the reply says why instead of what an expired call would.
        if (std::chrono::steady_clock::now() >= deadline) return waited_out(lane, deadline - timeout);
        return work(observer, deadline);
      },
      std::move(reply), lane);
}

}  // namespace companyos::daemon::methods
