#include "automation/run_plan.h"

#include "automation/effects.h"

namespace companyos::automation {

std::vector<PlannedStep> plan_steps(const Definition& definition) {
  std::vector<PlannedStep> plan;
  plan.reserve(definition.step_count());
  for_each_step(definition, [&](Phase phase, std::size_t index, const Step& step) {
    plan.push_back({phase, index, static_cast<int>(plan.size()) + 1, step_path(phase, index), &step});
  });
  return plan;
}

const Step* step_at_seq(const Definition& definition, int seq) {
  const Step* found = nullptr;
  int next = 1;
  for_each_step(definition, [&](Phase, std::size_t, const Step& step) {
    if (next++ == seq) found = &step;
  });
  return found;
}

std::string_view record_phase(Phase phase) {
  switch (phase) {
    case Phase::kPreconditions: return "precondition";
    case Phase::kActions: return "action";
    case Phase::kPostActions: return "post";
  }
  return "action";
}

StepMode run_mode(Level level, Phase phase, const Step& step) {
  if (level == Level::kSuggest) {
    return phase == Phase::kPreconditions && !has_effect(step) ? StepMode::kRun : StepMode::kDryRun;
  }
  return step_mode(level, step);
}

}  // namespace companyos::automation
