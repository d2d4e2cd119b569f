#include "automation/levels.h"

#include <algorithm>
#include <string>

#include "automation/effects.h"

namespace companyos::automation {
namespace {

constexpr int kLowest = 1;
constexpr int kHighestBuilt = 4;
constexpr int kNotBuilt = 5;

Error not_built() {
  return make_error(ErrorCode::kInvalidArgs, "level 5 is not built",
                    {{"level", kNotBuilt}, {"reason", "not_built"}},
                    "levels 1-4 exist; 4 (unattended) is the highest");
}

std::string level_text(Level level) {
  return std::to_string(to_number(level)) + " (" + std::string(to_string(level)) + ")";
}

}  // namespace

Result<Level> level_from_number(std::int64_t number) {
  if (number == kNotBuilt) return not_built();
  if (number < kLowest || number > kHighestBuilt) {
    return make_error(ErrorCode::kInvalidArgs,
                      "level " + std::to_string(number) + " is out of range 1-4",
                      {{"level", number}, {"allowed", "1-4"}});
  }
  return static_cast<Level>(number);
}

int to_number(Level level) { return static_cast<int>(level); }

std::string_view to_string(Level level) {
  switch (level) {
    case Level::kSuggest:
      return "suggest";
    case Level::kAssist:
      return "assist";
    case Level::kSupervised:
      return "supervised";
    case Level::kUnattended:
      break;
  }
  return "unattended";
}

std::string_view meaning(Level level) {
  switch (level) {
    case Level::kSuggest:
      return "runs are dry runs: every step is resolved and checked, nothing with an effect "
             "runs";
    case Level::kAssist:
      return "a person starts the run; every step with an effect waits for approval";
    case Level::kSupervised:
      return "a person starts or approves the run; steps run without asking, except press";
    case Level::kUnattended:
      break;
  }
  return "scheduled runs start without a person; reached only through the promotion gate";
}

Result<Level> raise(Level current, Level max_level) {
  if (current == Level::kUnattended) return not_built();
  if (current == Level::kSupervised) {
    return make_error(ErrorCode::kInvalidArgs, "level 4 is reached only through the promotion gate",
                      {{"level", to_number(current)}, {"reason", "use_promote"}},
                      "see `companyos automation gate ID`, then `companyos automation promote ID`");
  }
  const Level next = static_cast<Level>(to_number(current) + 1);
  if (to_number(next) > to_number(max_level)) {
    return make_error(ErrorCode::kPolicyDenied,
                      "the max_level setting is " + std::to_string(to_number(max_level)) +
                          ": level " + level_text(next) + " is not allowed",
                      {{"level", to_number(current)},
                       {"max_level", to_number(max_level)},
                       {"reason", "max_level"}},
                      "raise the max_level setting first");
  }
  return next;
}

Result<Level> lower(Level current) {
  if (current == Level::kSuggest) {
    return make_error(ErrorCode::kInvalidArgs, "level 1 (suggest) is the lowest level",
                      {{"level", to_number(current)}, {"reason", "lowest"}});
  }
  return static_cast<Level>(to_number(current) - 1);
}

Result<Level> promote(Level current, bool gate_passed, const nlohmann::json& gate_report) {
  if (current == Level::kUnattended) return not_built();
  if (current != Level::kSupervised || !gate_passed) {
    return make_error(ErrorCode::kGateNotMet,
                      "the promotion gate is not met: level " + level_text(current) + " stays",
                      {{"level", to_number(current)}, {"gate", gate_report}},
                      "see `companyos automation gate ID` for each condition and its figures");
  }
  return Level::kUnattended;
}

Level effective_level(Level stored, Level max_level) {
  return static_cast<Level>(std::min(to_number(stored), to_number(max_level)));
}

Level level_after_run(Level current, store::RunStatus finished_as) {
  if (current == Level::kUnattended && store::demotes_unattended(finished_as)) return Level::kSupervised;
  return current;
}

Level level_after_new_revision(Level current) {
  return current == Level::kUnattended ? Level::kSupervised : current;
}

StepMode step_mode(Level level, const Step& step) {
  switch (level) {
    case Level::kSuggest:
      return has_effect(step) ? StepMode::kDryRun : StepMode::kRun;
    case Level::kAssist:
      return has_effect(step) ? StepMode::kAskFirst : StepMode::kRun;
    case Level::kSupervised:
    case Level::kUnattended:
      break;
  }
  return step_type(step) == StepType::kPress ? StepMode::kAskFirst : StepMode::kRun;
}

bool may_start_unattended(Level level, const UnattendedSettings& settings) {
  return level == Level::kUnattended && settings.unattended &&
         settings.max_level == kHighestBuilt && settings.automations_enabled;
}

bool is_supervised(Level level_at_start, bool person_started_or_approved) {
  return level_at_start == Level::kSupervised && person_started_or_approved;
}

}  // namespace companyos::automation
