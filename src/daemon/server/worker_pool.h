// Runs work that can block (bus and X11 calls) off the main loop, on a bounded set of
// threads, and hands each result back to the main loop thread.
#pragma once

#include <functional>
#include <memory>

#include <glib.h>
#include <nlohmann/json.hpp>

#include "core/result.h"
#include "daemon/method_table.h"

namespace companyos::daemon {

class WorkerPool {
 public:
  using Job = std::function<Result<nlohmann::json>()>;

  // Results are delivered on main_context (the main loop's context).
  WorkerPool(GMainContext* main_context, int max_threads);
  ~WorkerPool();  // waits for running jobs; each is bounded by its own deadline
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void run(Job job, Reply done);

  struct Task;  // one job and its reply; defined in the .cpp

 private:
  static void execute(gpointer task, gpointer self);

  GMainContext* main_context_;
  GThreadPool* pool_ = nullptr;
};

}  // namespace companyos::daemon
