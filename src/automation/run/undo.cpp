// Undo of a finished run: its recorded inverses, highest seq first, then the run reverted.
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "automation/effects.h"
#include "automation/run/active_run.h"
#include "automation/run_plan.h"

namespace companyos::automation {

Result<UndoOutcome> Runner::undo(std::int64_t run_id) {
  auto run = with_store([&] { return runs_.get(run_id); });
  if (!run) return std::move(run).take_error();
  const std::int64_t automation_id = run->automation_id;
  {
    std::lock_guard lock(mutex_);
    if (active_.contains(automation_id) || undoing_.contains(automation_id)) {
      return make_error(ErrorCode::kConflict,
                        "automation " + std::to_string(automation_id) + " has a run or an undo in progress",
                        {{"id", automation_id}, {"run_id", run_id}}, "wait for it to end, or stop it first");
    }
    undoing_.insert(automation_id);
  }
  struct UndoingGuard {
    Runner& runner;
    std::int64_t id;
    ~UndoingGuard() {
      std::lock_guard lock(runner.mutex_);
      runner.undoing_.erase(id);
      runner.changed_.notify_all();
    }
  } guard{*this, automation_id};

  // Refused before any inverse runs (revert() would refuse these too, but only afterwards).
  if (auto undoable = store::check_undoable(*run); !undoable) return std::move(undoable).take_error();

  auto revision = with_store([&] { return automations_.revision(automation_id, run->revision); });
  if (!revision) return std::move(revision).take_error();
  auto definition = parse_definition(revision->definition);
  if (!definition) return std::move(definition).take_error();
  auto records = with_store([&] { return runs_.undo_records(run_id); });
  if (!records) return std::move(records).take_error();
  // An earlier undo that failed part-way took these back already; they do not run again.
  auto already = with_store([&] { return runs_.undone_seqs(run_id); });
  if (!already) return std::move(already).take_error();
  auto detail = with_store([&] { return runs_.detail(run_id); });
  if (!detail) return std::move(detail).take_error();
  auto settings = with_store([&] { return read_settings(settings_); });
  if (!settings) return std::move(settings).take_error();

  UndoOutcome outcome;
  for (const auto& step : detail->steps) {
    const Step* defined = step_at_seq(*definition, step.seq);
    if (step.status == "passed" && defined != nullptr && effect_of(*defined) == Effect::kIrreversible) {
      outcome.not_reversible.push_back(step.seq);
    }
  }
  // "reverted" says the run's effects were taken back; with no inverse recorded nothing
  // would be, and the run would still count against the gate and demote its automation.
  if (records->empty()) {
    return make_error(ErrorCode::kConflict,
                      "run " + std::to_string(run_id) + " recorded nothing that can be undone",
                      {{"run_id", run_id}, {"status", run->status}, {"not_reversible", outcome.not_reversible}},
                      "a level-1 dry run, or a run whose steps with an effect are all irreversible, has no inverse");
  }
  const auto plan = plan_steps(*definition);
  for (const auto& record : *records) {
    if (std::find(already->begin(), already->end(), record.seq) != already->end()) {
      outcome.undone.push_back(record.seq);
      continue;
    }
    const Step* step = step_at_seq(*definition, record.seq);
    if (step == nullptr) {
      return make_error(ErrorCode::kInternal, "run " + std::to_string(run_id) + " records an undo for step " +
                                                  std::to_string(record.seq) + ", which its revision lacks",
                        {{"seq", record.seq}, {"undone", outcome.undone}});
    }
    StepContext context;
    context.path = plan.at(static_cast<std::size_t>(record.seq - 1)).path;
    context.run_id = run_id;
    context.physical_input = settings->physical_input;
    context.agent_desktop_path = settings->agent_desktop_path;
    if (auto done = executor_.undo(*step, record, context); !done) {
      Error error = std::move(done).take_error();
      if (!error.details.is_object()) error.details = nlohmann::json::object();
      error.details["seq"] = record.seq;
      error.details["undone"] = outcome.undone;
      error.message = "undo of " + context.path + " failed: " + error.message;
      return error;
    }
    spdlog::info("run {} step {} undone", run_id, record.seq);
    outcome.undone.push_back(record.seq);
    if (auto marked = with_store([&] { return runs_.mark_undone(run_id, record.seq); }); !marked) {
      Error error = std::move(marked).take_error();
      error.message = "undo of " + context.path + " ran, but it could not be recorded: " + error.message;
      error.details = {{"seq", record.seq}, {"undone", outcome.undone}};
      return error;
    }
  }
  auto reverted = with_store([&] { return runs_.revert(run_id, "undone by a person"); });
  if (!reverted) return std::move(reverted).take_error();
  outcome.run = reverted->run;
  outcome.demoted = reverted->demoted;
  return outcome;
}

}  // namespace companyos::automation
