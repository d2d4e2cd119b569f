// Runs work that can block (bus and X11 calls) off the main loop, on a bounded set of
// threads, and hands each result back to the main loop thread.
#pragma once

#include <functional>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include <glib.h>
#include <nlohmann/json.hpp>

#include "companyos/result.h"
#include "daemon/method_table.h"
#include "daemon/server/lanes.h"

namespace companyos::daemon {

class WorkerPool {
 public:
  using Job = std::function<Result<nlohmann::json>()>;

  // Results are delivered on main_context (the main loop's context). At most lane_limit jobs
  // of one lane run at once (lanes.h).
  WorkerPool(GMainContext* main_context, int max_threads, std::size_t lane_limit = kDefaultLaneLimit);
  ~WorkerPool();  // waits for running jobs; each is bounded by its own deadline
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Of the 8 workers, one app's requests hold at most 2: three hung apps still leave two.
  static constexpr std::size_t kDefaultLaneLimit = 2;

  // From the main loop's thread only. lane: the app the job is about ("app:<name>"), or ""
  // for work about no one app; a job waits its lane's turn without holding a thread. When a
  // job of a lane ends APP_UNRESPONSIVE, the jobs waiting in that lane are not run: each is
  // answered with that error at once (details.reason "queued_behind_unanswered_requests").
  void run(Job job, Reply done, std::string lane = {});

  struct Task;  // one job and its reply; defined in the .cpp

 private:
  static void execute(gpointer task, gpointer self);
  void start(std::unique_ptr<Task> task);
  // The error a lane's waiting jobs are answered with: the result's, if APP_UNRESPONSIVE.
  static std::optional<Error> unanswered(const Result<nlohmann::json>& result);
  void finished(const std::string& lane, const std::optional<Error>& unanswered);

  GMainContext* main_context_;
  GThreadPool* pool_ = nullptr;
  Lanes<std::unique_ptr<Task>> lanes_;
  // Where a finished job's reply (on the main loop) finds the pool to start its lane's
  // next job; emptied by the destructor, so a reply delivered after it starts nothing.
  std::shared_ptr<WorkerPool*> self_ = std::make_shared<WorkerPool*>(this);
};

}  // namespace companyos::daemon
