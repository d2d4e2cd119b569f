#include "automation/effects.h"

namespace companyos::automation {

std::string_view to_string(Effect effect) {
  switch (effect) {
    case Effect::kNone:
      return "none";
    case Effect::kLocalReversible:
      return "local_reversible";
    case Effect::kIrreversible:
      break;
  }
  return "irreversible";
}

Effect effect_of(const Step& step) {
  switch (step_type(step)) {
    case StepType::kWait:
    case StepType::kCheck:
    case StepType::kFocus:
      return Effect::kNone;
    case StepType::kOpenLink:
    case StepType::kOpenFile:
    case StepType::kSetValue:
      return Effect::kLocalReversible;
    case StepType::kCommand:
      return std::get<CommandStep>(step.body).undo ? Effect::kLocalReversible
                                                   : Effect::kIrreversible;
    case StepType::kPress:
    case StepType::kClick:
    case StepType::kPi:  // an agent with the person's files and tools: nothing takes it back
      break;
  }
  return Effect::kIrreversible;
}

std::vector<std::string> all_effects_local_and_reversible(const Definition& definition) {
  std::vector<std::string> offending;
  for_each_step(definition, [&](Phase phase, std::size_t index, const Step& step) {
    if (effect_of(step) == Effect::kIrreversible) offending.push_back(step_path(phase, index));
  });
  return offending;
}

}  // namespace companyos::automation
