#include "daemon/methods/observation.h"

#include "a11y/observer.h"
#include "daemon/server/worker_pool.h"

namespace companyos::daemon::methods {

Result<a11y::WindowQuery> window_query_from(const nlohmann::json& params) {
  a11y::WindowQuery query;
  query.app = params["app"].get<std::string>();
  if (params.contains("window") && params.contains("title")) {
    return make_error(ErrorCode::kInvalidArgs, "give window or title, not both");
  }
  if (params.contains("window")) query.window_id = params["window"].get<std::string>();
  if (params.contains("title")) query.title = params["title"].get<std::string>();
  return query;
}

void run_observation(const nlohmann::json& params, DaemonContext& ctx, Reply reply, Observation work) {
  // The declaration has bounded timeout_ms already.
  const std::chrono::milliseconds timeout{
      params.value("timeout_ms", std::int64_t{declared::kDefaultObservationTimeout.count()})};
  a11y::Observer& observer = ctx.observer;
  ctx.workers.run(
      [&observer, work = std::move(work), timeout]() {
        return work(observer, std::chrono::steady_clock::now() + timeout);
      },
      std::move(reply));
}

}  // namespace companyos::daemon::methods
