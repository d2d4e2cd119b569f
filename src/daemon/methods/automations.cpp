// automation.list/get/create/update/delete/enable/disable and the level methods
// (automation.raise/lower/promote/gate): automations as stored, on the main loop through
// the daemon's store connection. Running them is in runs.cpp.
#include "automation/effects.h"
#include "automation/gate.h"
#include "automation/levels.h"
#include "automation/validation.h"
#include "core/clock.h"
#include "daemon/services/automation_service.h"
#include "daemon/context.h"
#include "daemon/methods/automation_view.h"
#include "daemon/methods/methods.h"
#include "daemon/services/scheduler_service.h"
#include "store/settings.h"

namespace companyos::daemon::methods {
namespace {

// The settings the level rules read.
struct LevelSettings {
  bool unattended = false;
  int max_level = 3;
  bool automations_enabled = true;
};

Result<LevelSettings> level_settings(store::Settings& settings) {
  auto all = settings.all();
  if (!all) return std::move(all).take_error();
  const auto flag = [&](const char* key, bool fallback) {
    const auto& value = (*all)[key];
    return value.is_boolean() ? value.get<bool>() : fallback;
  };
  LevelSettings out;
  out.unattended = flag("unattended", false);
  out.automations_enabled = flag("automations_enabled", true);
  if (const auto& max = (*all)["max_level"]; max.is_number_integer()) out.max_level = max.get<int>();
  return out;
}

// nextRunAt as the trigger loop has planned it: one source for the reply and the timer.
std::optional<std::int64_t> next_run_of(DaemonContext& ctx, const store::AutomationRecord& record) {
  return ctx.scheduler.triggers().next_run_at(record.id);
}

// The whole automation as get returns it.
nlohmann::json automation_reply(DaemonContext& ctx, const store::AutomationRecord& record) {
  return automation_json(record, next_run_of(ctx, record));
}

// The same after a change to the automation: the trigger loop plans it again (and re-arms)
// before nextRunAt is read.
nlohmann::json changed_reply(DaemonContext& ctx, const store::AutomationRecord& record) {
  ctx.scheduler.triggers().update(record);
  return automation_reply(ctx, record);
}

Result<store::AutomationRecord> automation_param(DaemonContext& ctx, const nlohmann::json& params) {
  auto id = positive_id(params, "id");
  if (!id) return std::move(id).take_error();
  return ctx.automations.automations().get(*id);
}

// validate_definition with the store's view of names: a name is taken when an automation
// other than `self` has it.
Result<automation::Definition> validated(DaemonContext& ctx, const nlohmann::json& definition,
                                         std::int64_t self) {
  auto existing = ctx.automations.automations().list();
  if (!existing) return std::move(existing).take_error();
  automation::ValidationContext context;
  context.now = ctx.clock.unix_seconds();
  context.name_taken = [&existing, self](const std::string& name) {
    for (const auto& record : *existing) {
      if (record.id != self && record.name == name) return true;
    }
    return false;
  };
  return automation::validate_definition(definition, context);
}

store::AutomationFields fields_of(const automation::Definition& definition) {
  // Stored in canonical form, so get shows defaults filled in and revisions compare steps
  // as the daemon understands them, not as they were spelled.
  return {definition.name, automation::to_json(definition).dump(), definition.enabled,
          definition.history_limit};
}

Result<automation::GateReport> gate_report(DaemonContext& ctx, const store::AutomationRecord& record) {
  auto settings = level_settings(ctx.settings);
  if (!settings) return std::move(settings).take_error();
  auto definition = automation::validate_definition(
      nlohmann::json::parse(record.definition, nullptr, false), automation::ValidationContext{});
  if (!definition) {
    return make_error(ErrorCode::kInternal,
                      "the stored definition of automation " + std::to_string(record.id) +
                          " no longer validates: " + definition.error().message,
                      {{"id", record.id}, {"problems", definition.error().details}},
                      "update the automation with a corrected definition");
  }
  const std::int64_t now = ctx.clock.unix_seconds();
  auto evidence = ctx.automations.ledger().gate_evidence(record.id, now);
  if (!evidence) return std::move(evidence).take_error();
  automation::GateInputs inputs;
  inputs.level = record.level;
  inputs.unattended_enabled = settings->unattended;
  inputs.max_level = settings->max_level;
  inputs.offending_effect_paths = automation::all_effects_local_and_reversible(*definition);
  inputs.ledger = std::move(evidence).value();
  inputs.now = now;
  return automation::evaluate_gate(inputs);
}

// Moves the automation to the level `rule` gives, replying with the automation and the level
// it had.
void change_level(DaemonContext& ctx, const nlohmann::json& params, Reply reply,
                  Result<automation::Level> (*rule)(automation::Level current, automation::Level max)) {
  auto record = automation_param(ctx, params);
  if (!record) return reply(std::move(record).take_error());
  auto settings = level_settings(ctx.settings);
  if (!settings) return reply(std::move(settings).take_error());
  auto current = automation::level_from_number(record->level);
  auto max = automation::level_from_number(settings->max_level);
  if (!current) return reply(std::move(current).take_error());
  if (!max) return reply(std::move(max).take_error());
  auto next = rule(*current, *max);
  if (!next) {
    Error error = std::move(next).take_error();
    error.details["id"] = record->id;
    return reply(std::move(error));
  }
  auto changed = ctx.automations.automations().set_level(record->id, automation::to_number(*next));
  if (!changed) return reply(std::move(changed).take_error());
  auto data = changed_reply(ctx, *changed);
  data["previous_level"] = record->level;
  reply(std::move(data));
}

void set_enabled(DaemonContext& ctx, const nlohmann::json& params, Reply reply, bool enabled) {
  auto id = positive_id(params, "id");
  if (!id) return reply(std::move(id).take_error());
  auto record = ctx.automations.automations().set_enabled(*id, enabled);
  if (!record) return reply(std::move(record).take_error());
  reply(changed_reply(ctx, *record));
}

}  // namespace

const MethodSpec kAutomationList{
    .decl = declared::kAutomationList,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      auto records = ctx.automations.automations().list();
      if (!records) return reply(std::move(records).take_error());
      auto settings = level_settings(ctx.settings);
      if (!settings) return reply(std::move(settings).take_error());
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& record : *records) {
        rows.push_back(automation_row_json(record, next_run_of(ctx, record)));
      }
      reply(nlohmann::json{{"automations", std::move(rows)},
                           {"automations_enabled", settings->automations_enabled}});
    },
};

const MethodSpec kAutomationGet{
    .decl = declared::kAutomationGet,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto record = automation_param(ctx, params);
      if (!record) return reply(std::move(record).take_error());
      reply(automation_reply(ctx, *record));
    },
};

const MethodSpec kAutomationCreate{
    .decl = declared::kAutomationCreate,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      // At the cap nothing can be stored, however valid: say so first. The store checks it
      // again in its transaction, for requests that race.
      auto stored = ctx.automations.automations().count();
      if (!stored) return reply(std::move(stored).take_error());
      if (*stored >= store::kMaxAutomations) {
        return reply(make_error(ErrorCode::kConflict,
                                "at most " + std::to_string(store::kMaxAutomations) +
                                    " automations can be stored",
                                {{"limit", store::kMaxAutomations}, {"count", *stored}},
                                "delete an automation you no longer need first"));
      }
      auto definition = validated(ctx, params["definition"], 0);
      if (!definition) return reply(std::move(definition).take_error());
      auto record = ctx.automations.automations().create(fields_of(*definition));
      if (!record) return reply(std::move(record).take_error());
      reply(changed_reply(ctx, *record));
    },
};

const MethodSpec kAutomationUpdate{
    .decl = declared::kAutomationUpdate,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto current = automation_param(ctx, params);
      if (!current) return reply(std::move(current).take_error());
      auto definition = validated(ctx, params["definition"], current->id);
      if (!definition) return reply(std::move(definition).take_error());
      auto outcome = ctx.automations.automations().update(current->id, fields_of(*definition));
      if (!outcome) return reply(std::move(outcome).take_error());
      auto data = changed_reply(ctx, outcome->automation);
      data["new_revision"] = outcome->new_revision;
      data["demoted"] = outcome->demoted;
      data["pruned_runs"] = outcome->pruned_runs;
      reply(std::move(data));
    },
};

const MethodSpec kAutomationDelete{
    .decl = declared::kAutomationDelete,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto record = automation_param(ctx, params);
      if (!record) return reply(std::move(record).take_error());
      for (const auto& run : ctx.automations.runner().active()) {
        if (run.automation_id != record->id) continue;
        return reply(make_error(ErrorCode::kConflict,
                                "automation " + std::to_string(record->id) + " has an active run (" +
                                    std::to_string(run.run_id) + ", " + std::string(store::to_string(run.status)) + ")",
                                {{"id", record->id}, {"run_id", run.run_id}, {"status", run.status}},
                                "stop it first: companyos automation stop " + std::to_string(record->id)));
      }
      if (auto removed = ctx.automations.automations().remove(record->id); !removed) {
        return reply(std::move(removed).take_error());
      }
      ctx.scheduler.triggers().remove(record->id);
      reply(nlohmann::json{{"id", record->id}, {"name", record->name}, {"deleted", true}});
    },
};

const MethodSpec kAutomationEnable{
    .decl = declared::kAutomationEnable,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      set_enabled(ctx, params, std::move(reply), true);
    },
};

const MethodSpec kAutomationDisable{
    .decl = declared::kAutomationDisable,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      set_enabled(ctx, params, std::move(reply), false);
    },
};

const MethodSpec kAutomationRaise{
    .decl = declared::kAutomationRaise,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      change_level(ctx, params, std::move(reply),
                   &automation::raise);
    },
};

const MethodSpec kAutomationLower{
    .decl = declared::kAutomationLower,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      change_level(ctx, params, std::move(reply),
                   [](automation::Level current, automation::Level) { return automation::lower(current); });
    },
};

const MethodSpec kAutomationPromote{
    .decl = declared::kAutomationPromote,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto record = automation_param(ctx, params);
      if (!record) return reply(std::move(record).take_error());
      auto current = automation::level_from_number(record->level);
      if (!current) return reply(std::move(current).take_error());
      auto report = gate_report(ctx, *record);
      if (!report) return reply(std::move(report).take_error());
      auto next = automation::promote(*current, report->passed, gate_json(*record, *report));
      if (!next) {
        Error error = std::move(next).take_error();
        if (error.code == ErrorCode::kGateNotMet) {
          // The numbers in the message; each condition's line with its figures in details.
          const auto failing = failing_conditions(*report);
          std::string numbers;
          for (const auto& condition : report->conditions) {
            if (!condition.pass) numbers += (numbers.empty() ? "" : ", ") + std::to_string(condition.number);
          }
          error.message += "; failing condition" + std::string(failing.size() == 1 ? " " : "s ") + numbers;
          error.details["failing"] = failing;
        }
        error.details["id"] = record->id;
        return reply(std::move(error));
      }
      auto promoted = ctx.automations.automations().set_level(record->id, automation::to_number(*next));
      if (!promoted) return reply(std::move(promoted).take_error());
      auto data = changed_reply(ctx, *promoted);
      data["previous_level"] = record->level;
      data["gate"] = automation::to_json(*report);
      reply(std::move(data));
    },
};

const MethodSpec kAutomationGate{
    .decl = declared::kAutomationGate,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto record = automation_param(ctx, params);
      if (!record) return reply(std::move(record).take_error());
      auto report = gate_report(ctx, *record);
      if (!report) return reply(std::move(report).take_error());
      reply(gate_json(*record, *report));
    },
};

}  // namespace companyos::daemon::methods
