// Automation levels 1-4: what each lets a run do without a person, how a
// level moves (raise, lower, promote through the gate, demotion), and when a trigger may
// start a run unattended. Pure functions; the store keeps the level.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "automation/definition.h"
#include "companyos/result.h"
#include "store/run_status.h"

namespace companyos::automation {

enum class Level {
  kSuggest = 1,     // dry runs: every step resolved and checked, nothing with an effect runs
  kAssist = 2,      // a person starts the run; every step with an effect waits for approval
  kSupervised = 3,  // a person starts or approves the run; only press asks
  kUnattended = 4,  // scheduled runs start without a person; reached only through the gate
};

// 1-4. 5 is INVALID_ARGS "level 5 is not built" (details.reason "not_built"); any other
// number is INVALID_ARGS naming the range.
Result<Level> level_from_number(std::int64_t number);
int to_number(Level level);
// "suggest", "assist", "supervised", "unattended".
std::string_view to_string(Level level);
// One line for `automation get` and the docs.
std::string_view meaning(Level level);

// 1→2→3, never above the max_level setting (POLICY_DENIED, details.max_level). From 3:
// INVALID_ARGS pointing at promote; from 4: INVALID_ARGS "level 5 is not built".
Result<Level> raise(Level current, Level max_level);
// One level down; INVALID_ARGS at level 1.
Result<Level> lower(Level current);
// 3→4 only when the gate passed: otherwise GATE_NOT_MET with details.gate = gate_report
// (the gate's conditions with their figures). From 4: INVALID_ARGS "level 5 is not built".
Result<Level> promote(Level current, bool gate_passed,
                      const nlohmann::json& gate_report = nlohmann::json::object());

// Runs behave at the lower of the stored level and the max_level setting, so lowering the
// setting takes effect at once without rewriting any automation.
Level effective_level(Level stored, Level max_level);
// A failed or reverted run drops level 4 to 3 (in the transaction that records it); other
// statuses, blocked included, change nothing.
Level level_after_run(Level current, store::RunStatus finished_as);
// New steps (a new revision) drop level 4 to 3: the gate's evidence was for the old ones.
Level level_after_new_revision(Level current);

enum class StepMode {
  kRun,       // runs without asking
  kAskFirst,  // waits for a person's approval, showing the step's description
  kDryRun,    // resolved and checked, reported as it would run, not executed
};

// Level 1: steps with an effect are dry runs, the others run. Level 2: every step with an
// effect asks. Levels 3 and 4: only press asks, always.
StepMode step_mode(Level level, const Step& step);
inline bool needs_approval(Level level, const Step& step) {
  return step_mode(level, step) == StepMode::kAskFirst;
}

// The settings that decide whether a trigger may start a run without a person.
struct UnattendedSettings {
  bool unattended = false;          // "unattended"
  int max_level = 3;                // "max_level"
  bool automations_enabled = true;  // "automations_enabled", the master switch
};

// Only a level-4 automation with unattended on, max_level 4 and the master switch on.
// Otherwise a trigger creates a run waiting for a person.
bool may_start_unattended(Level level, const UnattendedSettings& settings);

// Gate condition 4 counts supervised runs: started or approved by a person at level 3.
bool is_supervised(Level level_at_start, bool person_started_or_approved);

}  // namespace companyos::automation
