#include "daemon/server/worker_pool.h"

#include <spdlog/spdlog.h>

#include <optional>

namespace companyos::daemon {

struct WorkerPool::Task {
  Job job;
  Reply done;
  std::optional<Result<nlohmann::json>> result;
};

namespace {

using TaskPtr = std::unique_ptr<WorkerPool::Task>;

}  // namespace

WorkerPool::WorkerPool(GMainContext* main_context, int max_threads)
    : main_context_(g_main_context_ref(main_context)) {
  pool_ = g_thread_pool_new(&WorkerPool::execute, this, max_threads, FALSE, nullptr);
}

WorkerPool::~WorkerPool() {
  g_thread_pool_free(pool_, FALSE, TRUE);
  g_main_context_unref(main_context_);
}

void WorkerPool::run(Job job, Reply done) {
  auto task = std::make_unique<Task>(Task{std::move(job), std::move(done), std::nullopt});
  GError* raw_error = nullptr;
  // Ownership passes to the pool; execute() takes it back.
  Task* raw = task.release();
  if (!g_thread_pool_push(pool_, raw, &raw_error)) {
    TaskPtr reclaimed(raw);
    std::string message = raw_error != nullptr ? raw_error->message : "thread pool refused work";
    g_clear_error(&raw_error);
    reclaimed->done(make_error(ErrorCode::kInternal, "cannot start worker: " + message));
  }
}

void WorkerPool::execute(gpointer data, gpointer self_ptr) {
  TaskPtr task(static_cast<Task*>(data));
  auto* self = static_cast<WorkerPool*>(self_ptr);
  try {
    task->result = task->job();
  } catch (const std::exception& e) {
    // A job must not throw; if one does, the caller still gets an answer.
    spdlog::error("worker job threw: {}", e.what());
    task->result = make_error(ErrorCode::kInternal, std::string("internal error: ") + e.what());
  }
  g_main_context_invoke_full(
      self->main_context_, G_PRIORITY_DEFAULT,
      [](gpointer p) -> gboolean {
        auto* t = static_cast<Task*>(p);
        t->done(std::move(*t->result));
        return G_SOURCE_REMOVE;
      },
      task.release(), [](gpointer p) { TaskPtr(static_cast<Task*>(p)); });
}

}  // namespace companyos::daemon
