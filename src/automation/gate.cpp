#include "automation/gate.h"

#include <cstdio>

namespace companyos::automation {
namespace {

using store::in_gate_window;
using store::is_executed_status;
using store::LedgerRow;
using store::RunStatus;

constexpr int kDryRunLevel = 1;
constexpr int kSupervisedLevel = 3;
constexpr int kUnattendedLevel = 4;

// What the ledger says, counted once for conditions 4-8.
struct Tally {
  std::int64_t supervised_runs = 0;
  std::int64_t recent_runs = 0;
  std::int64_t checks_passed = 0;
  std::int64_t checks_failed = 0;
  std::int64_t reverted = 0;
  std::int64_t failed = 0;
};

Tally tally(const std::vector<LedgerRow>& rows, std::int64_t now) {
  Tally t;
  for (const LedgerRow& row : rows) {
    const bool executed = is_executed_status(row.status);
    const bool recent = in_gate_window(row.finished_at, now);
    const bool dry_run = row.level == kDryRunLevel;
    if (executed && row.supervised && row.level == kSupervisedLevel) ++t.supervised_runs;
    if (executed && recent && !dry_run) ++t.recent_runs;
    if (recent && !dry_run) {
      t.checks_passed += row.checks_passed;
      t.checks_failed += row.checks_failed;
    }
    if (row.status == RunStatus::kReverted && in_gate_window(row.reverted_at.value_or(row.finished_at), now)) {
      ++t.reverted;
    }
    if (row.status == RunStatus::kFailed && recent) ++t.failed;
  }
  return t;
}

std::string numbered(int number, std::string_view what, const std::string& figures) {
  return std::to_string(number) + ". " + std::string(what) + ": " + figures;
}

std::string of_needed(std::int64_t have, std::int64_t needed) {
  return std::to_string(have) + " of " + std::to_string(needed) + " needed";
}

// Rounded down to a tenth, so a share just below 99 % never reads "99.0".
std::string percent_text(std::int64_t part, std::int64_t whole) {
  const std::int64_t tenths = part * 1000 / whole;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld.%lld %%", static_cast<long long>(tenths / 10),
                static_cast<long long>(tenths % 10));
  return buffer;
}

std::string plural(std::int64_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

GateCondition level_condition(const GateInputs& in) {
  const bool pass = in.level >= kSupervisedLevel;
  return {1, "level", pass, {{"level", in.level}, {"needed", kSupervisedLevel}},
          numbered(1, "raised to level 3", "level " + std::to_string(in.level) + " now")};
}

GateCondition settings_condition(const GateInputs& in) {
  const bool pass = in.unattended_enabled && in.max_level >= kUnattendedLevel;
  return {2,
          "settings",
          pass,
          {{"unattended", in.unattended_enabled},
           {"max_level", in.max_level},
           {"needed_max_level", kUnattendedLevel}},
          numbered(2, "unattended runs on and max level 4 in Settings",
                   std::string("unattended ") + (in.unattended_enabled ? "on" : "off") +
                       ", max level " + std::to_string(in.max_level))};
}

GateCondition effects_condition(const GateInputs& in) {
  const auto& paths = in.offending_effect_paths;
  std::string figures = "no irreversible step";
  if (!paths.empty()) {
    figures = plural(static_cast<std::int64_t>(paths.size()), "irreversible step", "irreversible steps") + " (";
    for (std::size_t i = 0; i < paths.size(); ++i) figures += (i == 0 ? "" : ", ") + paths[i];
    figures += ")";
  }
  return {3, "effects", paths.empty(), {{"irreversible_steps", paths}},
          numbered(3, "every effect local and reversible", figures)};
}

}  // namespace

GateReport evaluate_gate(const GateInputs& in) {
  const Tally t = tally(in.ledger, in.now);
  GateReport report;
  report.conditions.reserve(kGateConditionCount);
  report.conditions.push_back(level_condition(in));
  report.conditions.push_back(settings_condition(in));
  report.conditions.push_back(effects_condition(in));

  report.conditions.push_back(
      {4, "supervised_runs", t.supervised_runs >= kGateSupervisedRunsNeeded,
       {{"supervised_runs", t.supervised_runs}, {"needed", kGateSupervisedRunsNeeded}},
       numbered(4, "supervised runs at level 3", of_needed(t.supervised_runs, kGateSupervisedRunsNeeded))});

  report.conditions.push_back(
      {5, "recent_runs", t.recent_runs >= kGateRecentRunsNeeded,
       {{"runs", t.recent_runs}, {"needed", kGateRecentRunsNeeded}, {"window_days", 14}},
       numbered(5, "runs in the last 14 days", of_needed(t.recent_runs, kGateRecentRunsNeeded))});

  const std::int64_t checks = t.checks_passed + t.checks_failed;
  // Integer comparison: exactly 99 % passes, 98.99 % does not.
  const bool checks_pass = checks > 0 && t.checks_passed * 100 >= kGateCheckPercentNeeded * checks;
  std::string check_figures =
      checks == 0 ? std::string("no check ran, at least one needed")
                  : std::to_string(t.checks_passed) + " of " + std::to_string(checks) + " passed (" +
                        percent_text(t.checks_passed, checks) + "), 99 % needed";
  report.conditions.push_back(
      {6, "checks", checks_pass,
       {{"passed", t.checks_passed},
        {"failed", t.checks_failed},
        {"percent", checks == 0 ? nlohmann::json(nullptr)
                                : nlohmann::json(static_cast<double>(t.checks_passed) * 100.0 /
                                                 static_cast<double>(checks))},
        {"needed_percent", kGateCheckPercentNeeded}},
       numbered(6, "checks passed in the last 14 days", check_figures)});

  report.conditions.push_back({7, "no_reverts", t.reverted == 0, {{"reverted", t.reverted}},
                               numbered(7, "no run reverted in the last 14 days",
                                        plural(t.reverted, "run reverted", "runs reverted"))});
  report.conditions.push_back({8, "no_failures", t.failed == 0, {{"failed", t.failed}},
                               numbered(8, "no run failed in the last 14 days",
                                        plural(t.failed, "run failed", "runs failed"))});

  report.passed = true;
  for (const auto& condition : report.conditions) report.passed = report.passed && condition.pass;
  return report;
}

nlohmann::json to_json(const GateReport& report) {
  nlohmann::json conditions = nlohmann::json::array();
  for (const auto& c : report.conditions) {
    conditions.push_back({{"number", c.number},
                          {"name", c.name},
                          {"pass", c.pass},
                          {"figures", c.figures},
                          {"text", c.text}});
  }
  return {{"passed", report.passed}, {"conditions", std::move(conditions)}};
}

}  // namespace companyos::automation
