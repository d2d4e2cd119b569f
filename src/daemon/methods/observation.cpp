#include "daemon/methods/observation.h"

#include "a11y/observer.h"
#include "daemon/worker_pool.h"

namespace companyos::daemon::methods {

ParamSpec timeout_param() {
  return {"timeout_ms", ParamType::kInteger, false, "deadline for the app's answers (default 2000)"};
}

void run_observation(const nlohmann::json& params, DaemonContext& ctx, Reply reply, Observation work) {
  std::chrono::milliseconds timeout = kDefaultObservationTimeout;
  if (params.contains("timeout_ms")) {
    const auto ms = params["timeout_ms"].get<std::int64_t>();
    if (ms < 1 || ms > kMaxObservationTimeout.count()) {
      return reply(make_error(ErrorCode::kInvalidArgs, "timeout_ms must be from 1 to 60000",
                              {{"param", "timeout_ms"}, {"got", ms}}));
    }
    timeout = std::chrono::milliseconds(ms);
  }
  a11y::Observer& observer = ctx.observer;
  ctx.workers.run(
      [&observer, work = std::move(work), timeout]() {
        return work(observer, std::chrono::steady_clock::now() + timeout);
      },
      std::move(reply));
}

}  // namespace companyos::daemon::methods
