#include "core/methods/params.h"

namespace companyos::methods {
namespace {

MethodDeclaration on_run(std::string_view name, std::string_view command, std::string_view summary,
                         unsigned flags, std::string_view returns) {
  return {.name = name,
          .command = command,
          .summary = summary,
          .params = {shared::id("the run's id")},
          .flags = flags | kFlagDashboard,  // the run's page uses them
          .returns = returns};
}

}  // namespace

const MethodDeclaration kRunShow = on_run(
    "run.show", "run show",
    "one run with its steps (status, delivery, error code, reason, duration, capped output) and checks", kFlagNone,
    R"(the run: status, level, supervised, `started_by`, times, reason, waiting description, `steps` (seq, phase, type, status, delivery, error code, reason, duration, capped output, `check_passed`), `checks` {passed, failed}, `recorded` (false: it ended while the store could not record it — a full disk — and is shown as it ended))");
const MethodDeclaration kRunApprove = on_run(
    "run.approve", "run approve", "a person approves the waiting run (or its waiting step); it goes on",
    kFlagEffectful | kFlagPersonOnly, R"(the run, running again; `CONFLICT` when it is not waiting)");
const MethodDeclaration kRunDeny = on_run("run.deny", "run deny", "a person denies the waiting run; it ends blocked",
                                          kFlagEffectful | kFlagPersonOnly,
    R"(the run, now `blocked`; `CONFLICT` when it is not waiting)");
const MethodDeclaration kRunAnswer{
    .name = "run.answer",
    .command = "run answer",
    .summary = "a person answers the question a step of the run asks (a pi step's select, confirm, input or editor); "
               "the step goes on with it",
    .params = {shared::id("the run's id"),
               {.name = "value", .help = "the answer: one of a select's options, or the text of an input or editor"},
               {.name = "confirm", .help = "the answer to a confirm question", .choices = {"yes", "no"}},
               {.name = "cancel", .type = ParamType::kBoolean, .help = "answer nothing: the question is cancelled"}},
    .flags = kFlagEffectful | kFlagPersonOnly | kFlagDashboard,
    .returns = R"(the run, running again; `CONFLICT` when it asks no question; `INVALID_ARGS` when the answer does not fit it (`details.problem`, and a select's `details.options`))",
};
const MethodDeclaration kRunUndo = on_run(
    "run.undo", "run undo",
    "run the run's recorded inverses in reverse order and mark it reverted (level 4 drops to 3)", kFlagEffectful,
    R"(the run (`reverted`) plus `undone` and `not_reversible` (step seqs) and `demoted`)");

const MethodDeclaration kApprovals{
    .name = "approvals",
    .command = "approvals",
    .summary = "runs waiting for a person: what they ask, since when, until when",
    .flags = kFlagDashboard,
    .returns = R"(`approvals`: waiting runs with `run_id`, `automation_name`, `waiting_step`, `waiting_description`, `waiting_since`, `approval_deadline`, and `question` (null for an approval; for a step's question: `kind` select, confirm, input or editor, `title`, `message`, `options`, `placeholder`, `prefill`) — a question is answered with `run.answer`)",
};

const MethodDeclaration kStopAll{
    .name = "stop_all",
    .command = "stop-all",
    .summary = "disable every automation and stop every active run",
    .flags = kFlagEffectful | kFlagDashboard,
    .returns = R"(`disabled` (how many automations), `stopped` (the runs); `settings.set automations_enabled false` does the same and returns it as `stop_all`)",
};

}  // namespace companyos::methods
