#include "core/methods/params.h"

namespace companyos::methods {
namespace {

MethodDeclaration on_automation(std::string_view name, std::string_view command, std::string_view summary,
                                unsigned flags, std::string_view returns) {
  return {.name = name,
          .command = command,
          .summary = summary,
          .params = {shared::id("the automation's id")},
          .flags = flags | kFlagDashboard,  // every automation's page uses them
          .returns = returns};
}

}  // namespace

const MethodDeclaration kAutomationList{
    .name = "automation.list",
    .command = "automation list",
    .summary = "every automation: id, name, level, enabled, last run status, nextRunAt and its zone",
    .flags = kFlagDashboard,
    .returns = R"(`automations`: id, name, level, enabled, `last_run_status`, `nextRunAt`, `timezone` (the schedule's zone, or null); `automations_enabled` — see [automations.md](automations.md))",
};

const MethodDeclaration kAutomationGet = on_automation(
    "automation.get", "automation get",
    "one automation: id, level, revision, enabled, canonical definition, last run, nextRunAt", kFlagNone,
    R"(the whole automation: id, name, level, `level_name`, `level_meaning` (what a run at that level does), revision, enabled, `history_limit`, `definition` (canonical), `last_run`, `nextRunAt`, `created_at`, `updated_at`)");

const MethodDeclaration kAutomationCreate{
    .name = "automation.create",
    .command = "automation create",
    .summary = "validate a definition and store it as a new automation at level 1",
    .params = {{.name = "definition", .type = ParamType::kAny, .required = true,
                .help = "the definition (JSON object); every problem is listed with its path"}},
    .flags = kFlagEffectful | kFlagDashboard,
    .returns = R"(the whole automation (level 1, revision 1); an invalid one is `INVALID_ARGS` with `details.problems` [{path, message}] and `details.problem_count`)",
};

const MethodDeclaration kAutomationUpdate{
    .name = "automation.update",
    .command = "automation update",
    .summary = "replace an automation's definition; new steps make a new revision (level 4 drops to 3)",
    .params = {shared::id("the automation's id"),
               {.name = "definition", .type = ParamType::kAny, .required = true,
                .help = "the whole new definition (JSON object)"}},
    .flags = kFlagEffectful | kFlagDashboard,
    .returns = R"(the whole automation plus `new_revision`, `demoted` (4 → 3 when the steps changed), `pruned_runs`)",
};

const MethodDeclaration kAutomationDelete = on_automation(
    "automation.delete", "automation delete",
    "delete an automation with its revisions and runs (refused while a run is active)", kFlagEffectful,
    R"(`id`, `name`, `deleted`; `CONFLICT` while a run is active)");
const MethodDeclaration kAutomationEnable = on_automation(
    "automation.enable", "automation enable", "let the automation run (and its schedule trigger)", kFlagEffectful,
    R"(the whole automation)");
const MethodDeclaration kAutomationDisable = on_automation(
    "automation.disable", "automation disable",
    "keep the automation from starting (an active run goes on; stop it with automation.stop)", kFlagEffectful,
    R"(the whole automation)");
const MethodDeclaration kAutomationRaise = on_automation(
    "automation.raise", "automation raise",
    "one level up: 1 -> 2 -> 3 (never above max_level; 4 only through promote)", kFlagEffectful | kFlagPersonOnly,
    R"(the whole automation plus `previous_level`; raise stops at 3 and at `max_level` (`POLICY_DENIED`))");
const MethodDeclaration kAutomationLower = on_automation(
    "automation.lower", "automation lower", "one level down, to 1 at the lowest", kFlagEffectful,
    R"(the whole automation plus `previous_level`; lower stops at 1)");
const MethodDeclaration kAutomationPromote = on_automation(
    "automation.promote", "automation promote",
    "3 -> 4 when every condition of the promotion gate holds; GATE_NOT_MET lists the failing ones",
    kFlagEffectful | kFlagPersonOnly,
    R"(3 → 4: the whole automation plus `previous_level` and `gate`; `GATE_NOT_MET` with `details.failing` (each failing condition's line) and `details.gate`; from 4, `INVALID_ARGS` "level 5 is not built")");
const MethodDeclaration kAutomationGate = on_automation(
    "automation.gate", "automation gate", "the promotion gate's eight conditions, each with pass/fail and its figures",
    kFlagNone,
    R"(`passed` and `conditions` (the eight: number, name, pass, figures, text))");
const MethodDeclaration kAutomationStart = on_automation(
    "automation.start", "automation start",
    "start a run now: a person's (level 1 dry run, 2 asks per step, 3-4 supervised), or an agent's, which "
    "below level 4 waits for the person's approval",
    kFlagEffectful,
    R"(the run (`running`, or `waiting`), `started_by` `person` or `agent`; `CONFLICT` while one is active, `POLICY_DENIED` when disabled or switched off)");
const MethodDeclaration kAutomationStop = on_automation(
    "automation.stop", "automation stop",
    "stop the automation's active run: the active step is cancelled, no postActions run", kFlagEffectful,
    R"(the run, now `stopped`; `CONFLICT` when none is active)");

const MethodDeclaration kAutomationRuns{
    .name = "automation.runs",
    .command = "automation runs",
    .summary = "an automation's runs, newest first, 20 a page; optionally only one status",
    .params = {shared::id("the automation's id"),
               {.name = "status",
                .help = "only runs with this status: running, waiting, succeeded, failed, blocked, skipped, "
                        "stopped or reverted"},
               {.name = "page", .type = ParamType::kInteger, .help = "page number, from 1 (default 1)",
                .range = IntRange{1, kMaxRunsPage}}},
    .flags = kFlagDashboard,
    .returns = R"(`runs` (newest first), `total`, `page`, `page_size` (20))",
};

}  // namespace companyos::methods
