// How automations and their runs appear in the protocol: pure conversions from store records
// to reply JSON, and the checks on ids and run filters that the params schema cannot express.
// No store, no runner, no scheduler: the method handlers pass records and nextRunAt in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automation/gate.h"
#include "automation/runner.h"
#include "companyos/result.h"
#include "store/automation_store.h"
#include "store/run_store.h"

namespace companyos::daemon::methods {

// An automation or run id param: a positive integer. INVALID_ARGS naming the param otherwise.
Result<std::int64_t> positive_id(const nlohmann::json& params, const char* name);

// automation.runs' optional params: status (one of the eight run statuses) and page (from 1).
// INVALID_ARGS naming the bad one and what is allowed.
Result<store::RunFilter> run_filter(const nlohmann::json& params);

// The whole automation: id, name, level, level_name, revision, enabled, history_limit,
// definition (canonical JSON), last_run ({id, status, started_at, finished_at} or null),
// nextRunAt (Unix seconds or null: the scheduler's, trigger_loop.h), created_at, updated_at.
nlohmann::json automation_json(const store::AutomationRecord& record,
                               std::optional<std::int64_t> next_run);
// One line of automation.list: id, name, level, enabled, last_run_status, nextRunAt.
nlohmann::json automation_row_json(const store::AutomationRecord& record,
                                   std::optional<std::int64_t> next_run);

// id, automation_id, revision, level, status, supervised, started_by ("person"/"schedule"),
// started_at, finished_at, approved_at, waiting_since, waiting_description, reason,
// step_count, output_bytes (absent optionals are null).
nlohmann::json run_json(const store::RunRecord& run);
// run_json plus steps (seq, phase, type, name, status, delivery, error_code, reason,
// duration_ms, output, output_truncated, check_passed) and checks {passed, failed}.
nlohmann::json run_detail_json(const store::RunDetail& detail);
// A running or waiting run as the runner knows it: run_id, automation_id, automation_name,
// level, status, started_at, waiting_description, waiting_step, waiting_since,
// approval_deadline.
nlohmann::json active_run_json(const automation::ActiveRunInfo& run);
// A step's question as approvals show it: kind, title, message, options, placeholder, prefill.
nlohmann::json question_json(const automation::Question& question);

// automation.gate's reply: the automation's id, level and revision with to_json(report).
nlohmann::json gate_json(const store::AutomationRecord& record, const automation::GateReport& report);
// The lines ("5. runs in the last 14 days: 18 of 25 needed") of the conditions that fail.
std::vector<std::string> failing_conditions(const automation::GateReport& report);

}  // namespace companyos::daemon::methods
