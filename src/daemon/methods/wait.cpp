// The `wait` method: blocks until a window appears or closes, a text appears, or an element
// meets a predicate, or answers TIMEOUT with what it saw last (a11y/wait.h does the work).
//
// Where waits run: on the daemon's worker pool, like every call that can block, but at most
// kMaxConcurrentWaits at once, so that long waits leave the other half of the pool (the
// daemon runs 8 workers) to status, snapshots and actions. A wait beyond the cap is refused
// at once with CONFLICT rather than queued behind the others, where it would silently lose
// its time. They share the pool rather than owning threads because a wait uses the daemon's
// Observer (its snapshot store holds the refs waited on), which outlives that pool: the
// pool's shutdown joins every job before the Observer goes away.
#include <atomic>
#include <memory>
#include <stop_token>

#include <spdlog/spdlog.h>

#include "a11y/apps.h"
#include "a11y/observer.h"
#include "a11y/ref.h"
#include "a11y/wait.h"
#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "daemon/wire/wait_params.h"
#include "daemon/server/worker_pool.h"
#include "daemon/wire/a11y_replies.h"

namespace companyos::daemon::methods {
namespace {

constexpr int kMaxConcurrentWaits = 4;

// A counted place among the running waits; given back when the wait's job is done with.
class WaitSlot {
  struct Key {};  // only take() makes slots

 public:
  // Null when kMaxConcurrentWaits waits are running already.
  static std::shared_ptr<WaitSlot> take() {
    int running = running_.load();
    do {
      if (running >= kMaxConcurrentWaits) return nullptr;
    } while (!running_.compare_exchange_weak(running, running + 1));
    return std::make_shared<WaitSlot>(Key{});
  }
  static int running() { return running_.load(); }

  explicit WaitSlot(Key) {}
  ~WaitSlot() { running_.fetch_sub(1); }
  WaitSlot(const WaitSlot&) = delete;
  WaitSlot& operator=(const WaitSlot&) = delete;

 private:
  static inline std::atomic<int> running_{0};
};

Error too_many_waits() {
  return make_error(ErrorCode::kConflict,
                    std::to_string(WaitSlot::running()) + " waits are running, the most at once",
                    {{"running", WaitSlot::running()}, {"limit", kMaxConcurrentWaits}},
                    "retry when one of them has ended, or shorten their timeouts");
}

// An element wait that also names an app: the ref must be one of that app's, so a caller
// who mixed up two refs is told so instead of waiting on the wrong app. An unknown ref is
// left to wait_for, which answers STALE_REF.
Status check_ref_app(a11y::Observer& observer, const std::string& ref, const std::string& app) {
  auto parsed = a11y::parse_ref(ref);
  if (!parsed) return std::move(parsed).take_error();
  auto stored = observer.store().lookup(*parsed);
  if (!stored || a11y::app_name_matches(stored->snapshot->app_name, app)) return ok_status();
  return make_error(ErrorCode::kInvalidArgs,
                    "the ref " + ref + " belongs to app " + stored->snapshot->app_name + ", not " + app,
                    {{"ref", ref}, {"ref_app", stored->snapshot->app_name}, {"app", app}},
                    "leave app out for an element wait, or use a ref of that app");
}

}  // namespace

const MethodSpec kWait{
    .decl = declared::kWait,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      // Counted from the request, so time spent queued for a worker is part of the wait.
      const auto received = std::chrono::steady_clock::now();
      auto request = wire::parse_wait_request(params);
      if (!request) return reply(std::move(request).take_error());
      if (const auto* element = std::get_if<a11y::ElementPredicate>(&request->condition);
          element != nullptr && request->app) {
        if (auto same_app = check_ref_app(ctx.observer, element->ref, *request->app); !same_app) {
          return reply(std::move(same_app).take_error());
        }
      }
      auto slot = WaitSlot::take();
      if (!slot) return reply(too_many_waits());
      a11y::Observer& observer = ctx.observer;
      std::stop_token client_gone = reply.client_gone();  // before reply is moved below
      ctx.workers.run(
          [&observer, condition = std::move(request->condition),
           deadline = received + request->timeout, slot, stopping = ctx.stopping,
           client_gone = std::move(client_gone)]() -> Result<nlohmann::json> {
            // Either ends the wait at its next look: the daemon stopping, or the client
            // gone (a killed `companyos wait` would otherwise hold its slot to the deadline).
            std::stop_source cancel;
            const std::stop_callback on_stopping(stopping, [&cancel] { cancel.request_stop(); });
            const std::stop_callback on_gone(client_gone, [&cancel] { cancel.request_stop(); });
            a11y::WaitOptions options;
            options.stop = cancel.get_token();
            auto outcome = a11y::wait_for(observer, condition, deadline, options);
            if (!outcome) {
              if (client_gone.stop_requested() && !stopping.stop_requested()) {
                spdlog::info("a wait ended early: its client closed the connection");
              }
              return std::move(outcome).take_error();
            }
            return wire::wait_outcome_to_json(*outcome);
          },
          std::move(reply));
    },
};

}  // namespace companyos::daemon::methods
