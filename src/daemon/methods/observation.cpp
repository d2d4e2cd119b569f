#include "daemon/methods/observation.h"

#include "a11y/observer.h"
#include "daemon/worker_pool.h"

namespace companyos::daemon::methods {

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
