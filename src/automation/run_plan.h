// The order a run goes through a definition's steps and how each one runs at a level: the
// numbering the runner records (seq), and the level-1 dry-run rule on top of step_mode.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "automation/definition.h"
#include "automation/levels.h"

namespace companyos::automation {

struct PlannedStep {
  Phase phase = Phase::kActions;
  std::size_t index = 0;  // within its phase
  int seq = 0;            // 1-based, across preconditions, actions and postActions in order
  std::string path;       // "actions[2]"
  const Step* step = nullptr;  // into the definition the plan was made from
};

// Every step in run order. The pointers live as long as `definition`.
std::vector<PlannedStep> plan_steps(const Definition& definition);

// The step with this seq, or null.
const Step* step_at_seq(const Definition& definition, int seq);

// "precondition", "action", "post": the phase as a step record names it.
std::string_view record_phase(Phase phase);

// step_mode(level, step), except at level 1, where only preconditions without an effect run
// for real: every later step is a dry run, since a wait or check there would watch for an
// effect the dry run did not make (and a dry run must count for no check).
StepMode run_mode(Level level, Phase phase, const Step& step);

}  // namespace companyos::automation
