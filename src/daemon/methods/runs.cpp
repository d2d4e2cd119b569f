// Running automations: automation.start/stop/runs, run.show/approve/deny/answer/undo, approvals and
// stop_all. The Runner does the work; calls that wait for steps to end (stop, undo, stop-all)
// go to a worker so the main loop keeps answering. Reads go through the daemon's store
// connection on the main loop; worker jobs touch only the runner, never that connection.
#include <spdlog/spdlog.h>

#include "daemon/services/automation_service.h"
#include "daemon/context.h"
#include "daemon/methods/automation_view.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/stop_all.h"
#include "daemon/services/scheduler_service.h"
#include "daemon/server/worker_pool.h"

namespace companyos::daemon::methods {
namespace {

Result<nlohmann::json> as_run_reply(Result<store::RunRecord> run) {
  if (!run) return std::move(run).take_error();
  return run_json(*run);
}


}  // namespace

void stop_all_automations(DaemonContext& ctx, Reply reply) {
  automation::Runner& runner = ctx.automations.runner();
  ctx.workers.run(
      [&runner]() -> Result<nlohmann::json> {
        auto outcome = runner.stop_all();
        if (!outcome) return std::move(outcome).take_error();
        nlohmann::json stopped = nlohmann::json::array();
        for (const auto& run : outcome->stopped) stopped.push_back(run_json(run));
        return nlohmann::json{{"disabled", outcome->disabled}, {"stopped", std::move(stopped)}};
      },
      // Back on the main loop: the runner disabled the automations behind the scheduler.
      reply.rerouted([&ctx, reply](Result<nlohmann::json> result) {
        if (auto planned = ctx.scheduler.reload(); !planned) {
          spdlog::error("schedule: planning after stop-all: {}", planned.error().message);
        }
        reply(std::move(result));
      }));
}

const MethodSpec kAutomationStart{
    .decl = declared::kAutomationStart,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      // Returns once the run is recorded; its steps go on on the run's own thread. Its
      // retries, too, stop short of the automation's next scheduled trigger.
      // An agent's start (MCP) is recorded as the agent's, and waits for the person below
      // level 4: an agent can never supply the supervision that earns its own promotion.
      const auto trigger = reply.origin() == protocol::Origin::kAgent ? automation::Trigger::kAgent
                                                                      : automation::Trigger::kManual;
      reply(as_run_reply(ctx.automations.runner().start(
          *id, automation::StartRequest{trigger, ctx.scheduler.triggers().next_run_at(*id)})));
    },
};

const MethodSpec kAutomationStop{
    .decl = declared::kAutomationStop,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      automation::Runner& runner = ctx.automations.runner();
      ctx.workers.run([&runner, id = *id]() { return as_run_reply(runner.stop(id)); },
                      std::move(reply));
    },
};

const MethodSpec kAutomationRuns{
    .decl = declared::kAutomationRuns,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      auto filter = run_filter(params);
      if (!filter) return reply(std::move(filter).take_error());
      auto page = ctx.automations.runs().list(*id, *filter);
      if (!page) return reply(std::move(page).take_error());
      nlohmann::json runs = nlohmann::json::array();
      for (const auto& run : page->runs) runs.push_back(run_json(run));
      reply(nlohmann::json{{"automation_id", *id},
                           {"status", filter->status ? nlohmann::json(*filter->status) : nlohmann::json(nullptr)},
                           {"runs", std::move(runs)},
                           {"total", page->total},
                           {"page", page->page},
                           {"page_size", page->page_size}});
    },
};

const MethodSpec kRunShow{
    .decl = declared::kRunShow,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      auto detail = ctx.automations.runs().detail(*id);
      if (!detail) return reply(std::move(detail).take_error());
      // A run that ended while the store could not record it is shown as it ended.
      const auto unrecorded = ctx.automations.runner().unrecorded(*id);
      if (unrecorded) {
        detail->run.status = unrecorded->status;
        detail->run.finished_at = unrecorded->finished_at;
        detail->run.reason = unrecorded->reason;
      }
      auto data = run_detail_json(*detail);
      data["recorded"] = !unrecorded;
      reply(std::move(data));
    },
};

const MethodSpec kRunApprove{
    .decl = declared::kRunApprove,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      reply(as_run_reply(ctx.automations.runner().approve(*id)));
    },
};

const MethodSpec kRunDeny{
    .decl = declared::kRunDeny,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      reply(as_run_reply(ctx.automations.runner().deny(*id)));
    },
};

// Exactly one of value, confirm and cancel: what the person answers.
Result<automation::Answer> answer_from(const nlohmann::json& params) {
  automation::Answer answer;
  int given = 0;
  if (params.contains("value")) {
    answer.value = params["value"].get<std::string>();
    ++given;
  }
  if (params.contains("confirm")) {
    answer.confirmed = params["confirm"] == "yes";
    ++given;
  }
  if (params.value("cancel", false)) {
    answer.cancelled = true;
    ++given;
  }
  if (given != 1) {
    return make_error(ErrorCode::kInvalidArgs, "give exactly one of value, confirm and cancel",
                      {{"param", given == 0 ? "value" : "cancel"}},
                      "companyos approvals shows what the run asks and how to answer it");
  }
  return answer;
}

const MethodSpec kRunAnswer{
    .decl = declared::kRunAnswer,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      auto answer = answer_from(params);
      if (!answer) return reply(std::move(answer).take_error());
      reply(as_run_reply(ctx.automations.runner().answer(*id, *answer)));
    },
};

const MethodSpec kRunUndo{
    .decl = declared::kRunUndo,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto id = positive_id(params, "id");
      if (!id) return reply(std::move(id).take_error());
      automation::Runner& runner = ctx.automations.runner();
      ctx.workers.run(
          [&runner, id = *id]() -> Result<nlohmann::json> {
            auto outcome = runner.undo(id);
            if (!outcome) return std::move(outcome).take_error();
            nlohmann::json data = run_json(outcome->run);
            data["demoted"] = outcome->demoted;
            data["undone"] = outcome->undone;
            data["not_reversible"] = outcome->not_reversible;
            return data;
          },
          std::move(reply));
    },
};

const MethodSpec kApprovals{
    .decl = declared::kApprovals,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      nlohmann::json waiting = nlohmann::json::array();
      for (const auto& run : ctx.automations.runner().active()) {
        if (run.status == store::RunStatus::kWaiting) waiting.push_back(active_run_json(run));
      }
      reply(nlohmann::json{{"approvals", std::move(waiting)}});
    },
};

const MethodSpec kStopAll{
    .decl = declared::kStopAll,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      stop_all_automations(ctx, std::move(reply));
    },
};

}  // namespace companyos::daemon::methods
