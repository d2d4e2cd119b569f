// batch: actions run one after another through the method table, each exactly as if it
// had been called on its own (its own audit row, deadline and delivery). Every step is
// checked before the first one runs; a step that fails is reported and, with
// stop_on_error, the rest are reported as not run.
#include <memory>

#include "a11y/observer.h"
#include "companyos/protocol.h"
#include "daemon/context.h"
#include "daemon/methods/batch_plan.h"
#include "daemon/methods/element_actions.h"
#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {
namespace {

struct BatchRun {
  std::vector<BatchStep> steps;
  bool stop_on_error = false;
  Reply reply;
  nlohmann::json results = nlohmann::json::array();
  std::size_t succeeded = 0;
  std::size_t failed = 0;
  bool stopped = false;
};

nlohmann::json step_header(const BatchRun& run, std::size_t index) {
  return {{"step", index}, {"command", run.steps[index].command}};
}

void finish(BatchRun& run) {
  for (std::size_t index = run.results.size(); index < run.steps.size(); ++index) {
    nlohmann::json skipped = step_header(run, index);
    skipped["status"] = "not_run";
    run.results.push_back(std::move(skipped));
  }
  const std::size_t not_run = run.steps.size() - run.succeeded - run.failed;
  run.reply(nlohmann::json{{"steps", std::move(run.results)},
                           {"succeeded", run.succeeded},
                           {"failed", run.failed},
                           {"not_run", not_run},
                           {"stopped", run.stopped}});
}

void run_next(const std::shared_ptr<BatchRun>& run, DaemonContext& ctx) {
  const std::size_t index = run->results.size();
  if (index == run->steps.size()) return finish(*run);
  const BatchStep& step = run->steps[index];
  ctx.methods.dispatch(step.spec->decl.name, step.args, ctx,
                       run->reply.rerouted([run, &ctx, index](Result<nlohmann::json> result) {
                         nlohmann::json item = step_header(*run, index);
                         const bool ok = result.ok();
                         if (ok) {
                           item["status"] = "ok";
                           item["data"] = std::move(result).value();
                           ++run->succeeded;
                         } else {
                           item["status"] = "error";
                           item["error"] = protocol::error_envelope(nullptr, result.error())["error"];
                           ++run->failed;
                         }
                         run->results.push_back(std::move(item));
                         if (!ok && run->stop_on_error) {
                           run->stopped = run->results.size() < run->steps.size();
                           return finish(*run);
                         }
                         run_next(run, ctx);
                       }));
}

// Element actions are parsed up front too, so a malformed target or value in any step
// refuses the whole batch before the first step runs.
Status check_element_steps(const std::vector<BatchStep>& steps, DaemonContext& ctx) {
  for (std::size_t index = 0; index < steps.size(); ++index) {
    const auto kind = element_action_kind(steps[index].spec->decl.name);
    if (!kind) continue;
    auto request = element_action_request(*kind, steps[index].args, ctx.observer.store());
    if (!request) {
      Error error = std::move(request).take_error();
      error.message = "step " + std::to_string(index) + ": " + error.message;
      error.details["step"] = index;
      return error;
    }
  }
  return ok_status();
}

}  // namespace

const MethodSpec kBatch{
    .decl = declared::kBatch,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto steps = plan_batch(params["steps"], ctx.methods);
      if (!steps) return reply(std::move(steps).take_error());
      if (auto checked = check_element_steps(*steps, ctx); !checked) {
        return reply(std::move(checked).take_error());
      }
      auto run = std::make_shared<BatchRun>();
      run->steps = std::move(steps).value();
      run->stop_on_error = params.value("stop_on_error", false);
      run->reply = std::move(reply);
      run_next(run, ctx);
    },
};

}  // namespace companyos::daemon::methods
