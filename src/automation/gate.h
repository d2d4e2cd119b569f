// The promotion gate: the eight conditions a level-3 automation must meet to
// be promoted to 4, each with its figures, evaluated from plain inputs. Pure: the caller
// loads settings, effects and the ledger (store::RunLedger::gate_evidence) and passes them in.
//
// Counting rules (docs/automations.md, "The promotion gate"):
// - evidence is the ledger rows of the current revision only;
// - executed runs are succeeded, failed and reverted ones; blocked, skipped, stopped and
//   unfinished runs did not do their work and count for neither condition 4 nor 5;
// - a supervised run was started or approved by a person at level 3 (condition 4 has no window);
// - a level-1 run is a dry run: it counts for neither the runs of condition 5 nor the checks
//   of condition 6, but its failure or undo still counts against 7 and 8;
// - "the last 14 days" at `now` holds a moment t when t > now - 14 days: a run exactly 14
//   days old is out. Runs count by finish time; an undo counts from the moment of the undo.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/run_ledger.h"

namespace companyos::automation {

inline constexpr std::int64_t kGateSupervisedRunsNeeded = 10;
inline constexpr std::int64_t kGateRecentRunsNeeded = 25;
inline constexpr std::int64_t kGateCheckPercentNeeded = 99;
inline constexpr int kGateConditionCount = 8;

struct GateInputs {
  int level = 1;                       // the automation's stored level
  bool unattended_enabled = false;     // setting "unattended"
  int max_level = 3;                   // setting "max_level"
  std::vector<std::string> offending_effect_paths;  // irreversible steps ("actions[1]")
  std::vector<store::LedgerRow> ledger;             // rows of the current revision
  std::int64_t now = 0;                             // Unix seconds
};

struct GateCondition {
  int number = 0;          // 1-8, in the order the report lists them
  std::string_view name;   // stable key, e.g. "recent_runs"
  bool pass = false;
  nlohmann::json figures;  // what was counted and what is needed
  std::string text;        // "5. runs in the last 14 days: 18 of 25 needed"
};

struct GateReport {
  std::vector<GateCondition> conditions;  // always all eight, in order
  bool passed = false;                    // every condition passed
};

GateReport evaluate_gate(const GateInputs& inputs);

// {"passed": bool, "conditions": [{"number", "name", "pass", "figures", "text"}, …]}
nlohmann::json to_json(const GateReport& report);

}  // namespace companyos::automation
