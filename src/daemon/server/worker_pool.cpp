#include "daemon/server/worker_pool.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "core/thread_handoff.h"

namespace companyos::daemon {

struct WorkerPool::Task {
  Job job;
  Reply done;
  std::string lane;
  std::optional<Result<nlohmann::json>> result;
  std::shared_ptr<WorkerPool*> pool;
};

namespace {

using TaskPtr = std::unique_ptr<WorkerPool::Task>;

}  // namespace

WorkerPool::WorkerPool(GMainContext* main_context, int max_threads, std::size_t lane_limit)
    : main_context_(g_main_context_ref(main_context)), lanes_(lane_limit) {
  pool_ = g_thread_pool_new(&WorkerPool::execute, this, max_threads, FALSE, nullptr);
}

WorkerPool::~WorkerPool() {
  *self_ = nullptr;
  g_thread_pool_free(pool_, FALSE, TRUE);
  g_main_context_unref(main_context_);
}

void WorkerPool::run(Job job, Reply done, std::string lane) {
  auto task = std::make_unique<Task>(Task{std::move(job), std::move(done), std::move(lane), std::nullopt, self_});
  const std::string key = task->lane;
  if (auto admitted = lanes_.admit(key, std::move(task))) start(std::move(*admitted));
}

std::optional<Error> WorkerPool::unanswered(const Result<nlohmann::json>& result) {
  if (result || result.error().code != ErrorCode::kAppUnresponsive) return std::nullopt;
  return result.error();
}

void WorkerPool::finished(const std::string& lane, const std::optional<Error>& unanswered) {
  if (unanswered) {
    // The app did not answer: what waits behind it would wait out its deadline and learn
    // the same, or less (an expired call reads as a missing app).
    for (auto& waiting : lanes_.take_waiting(lane)) {
      Error error = *unanswered;
      error.details["reason"] = "queued_behind_unanswered_requests";
      waiting->done(std::move(error));
    }
  }
  if (auto next = lanes_.finish(lane)) start(std::move(*next));
}

void WorkerPool::start(std::unique_ptr<Task> task) {
  GError* raw_error = nullptr;
  // Ownership passes to the pool; execute() takes it back.
  Task* raw = task.release();
  handoff_release(raw);
  if (!g_thread_pool_push(pool_, raw, &raw_error)) {
    TaskPtr reclaimed(raw);
    std::string message = raw_error != nullptr ? raw_error->message : "thread pool refused work";
    g_clear_error(&raw_error);
    const std::string lane = reclaimed->lane;
    reclaimed->done(make_error(ErrorCode::kInternal, "cannot start worker: " + message));
    finished(lane, std::nullopt);
  }
}

void WorkerPool::execute(gpointer data, gpointer self_ptr) {
  handoff_acquire(data);
  TaskPtr task(static_cast<Task*>(data));
  auto* self = static_cast<WorkerPool*>(self_ptr);
  try {
    task->result = task->job();
  } catch (const std::exception& e) {
    // A job must not throw; if one does, the caller still gets an answer.
    spdlog::error("worker job threw: {}", e.what());
    task->result = make_error(ErrorCode::kInternal, std::string("internal error: ") + e.what());
  }
  handoff_release(task.get());
  g_main_context_invoke_full(
      self->main_context_, G_PRIORITY_DEFAULT,
      [](gpointer p) -> gboolean {
        handoff_acquire(p);
        auto* t = static_cast<Task*>(p);
        // Only an APP_UNRESPONSIVE error is kept past done(): a reply is never copied.
        const std::optional<Error> unresponsive = unanswered(*t->result);
        t->done(std::move(*t->result));
        if (WorkerPool* pool = *t->pool) pool->finished(t->lane, unresponsive);
        return G_SOURCE_REMOVE;
      },
      task.release(), [](gpointer p) { TaskPtr(static_cast<Task*>(p)); });
}

}  // namespace companyos::daemon
