#include "daemon/methods/automation_view.h"

#include "automation/levels.h"
#include "companyos/methods.h"
#include "store/run_status.h"

namespace companyos::daemon::methods {
namespace {


template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string level_name(int number) {
  auto level = automation::level_from_number(number);
  return level ? std::string(automation::to_string(*level)) : "unknown";
}

std::string level_meaning(int number) {
  auto level = automation::level_from_number(number);
  return level ? std::string(automation::meaning(*level)) : "";
}

nlohmann::json last_run_json(const std::optional<store::LastRun>& last) {
  if (!last) return nullptr;
  return {{"id", last->id},
          {"status", last->status},
          {"started_at", last->started_at},
          {"finished_at", or_null(last->finished_at)}};
}

// The stored text is a validated definition; should it ever not parse, the reply still
// shows the rest of the automation.
nlohmann::json parsed_definition(const std::string& text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  return parsed.is_discarded() ? nlohmann::json(nullptr) : parsed;
}

}  // namespace

Result<std::int64_t> positive_id(const nlohmann::json& params, const char* name) {
  const auto it = params.find(name);
  if (it == params.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1) {
    return make_error(ErrorCode::kInvalidArgs, std::string(name) + " must be a positive integer",
                      {{"param", name}, {"got", it == params.end() ? nlohmann::json(nullptr) : *it}});
  }
  return it->get<std::int64_t>();
}

Result<store::RunFilter> run_filter(const nlohmann::json& params) {
  store::RunFilter filter;
  if (const auto it = params.find("status"); it != params.end() && !it->is_null()) {
    const std::string status = it->is_string() ? it->get<std::string>() : it->dump();
    const auto parsed = it->is_string() ? store::run_status_from_string(status) : std::nullopt;
    if (!parsed) {
      return make_error(ErrorCode::kInvalidArgs, "status '" + status + "' is not a run status",
                        {{"param", "status"},
                         {"got", *it},
                         {"allowed", {"running", "waiting", "succeeded", "failed", "blocked",
                                      "skipped", "stopped", "reverted"}}},
                        "use one of running, waiting, succeeded, failed, blocked, skipped, "
                        "stopped, reverted");
    }
    filter.status = *parsed;
  }
  if (const auto it = params.find("page"); it != params.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > ::companyos::methods::kMaxRunsPage) {
      return make_error(ErrorCode::kInvalidArgs,
                        "page must be an integer from 1 to " + std::to_string(::companyos::methods::kMaxRunsPage),
                        {{"param", "page"}, {"got", *it}});
    }
    filter.page = static_cast<int>(it->get<std::int64_t>());
  }
  return filter;
}

nlohmann::json automation_json(const store::AutomationRecord& record,
                               std::optional<std::int64_t> next_run) {
  nlohmann::json definition = parsed_definition(record.definition);
  // enable/disable change the record, not the stored text: the definition shown says what
  // holds now, so sending it back with update keeps the state.
  if (definition.is_object()) definition["enabled"] = record.enabled;
  return {{"id", record.id},
          {"name", record.name},
          {"level", record.level},
          {"level_name", level_name(record.level)},
          {"level_meaning", level_meaning(record.level)},
          {"revision", record.revision},
          {"enabled", record.enabled},
          {"history_limit", record.history_limit},
          {"definition", std::move(definition)},
          {"last_run", last_run_json(record.last_run)},
          {"nextRunAt", or_null(next_run)},
          {"created_at", record.created_at},
          {"updated_at", record.updated_at}};
}

nlohmann::json automation_row_json(const store::AutomationRecord& record,
                                   std::optional<std::int64_t> next_run) {
  // The zone nextRunAt is planned in, so a list can show it as the schedule means it.
  const nlohmann::json definition = parsed_definition(record.definition);
  const auto zone = definition.is_object() ? definition.find("timezone") : definition.end();
  return {{"id", record.id},
          {"timezone", zone != definition.end() && zone->is_string() ? *zone : nlohmann::json(nullptr)},
          {"name", record.name},
          {"level", record.level},
          {"enabled", record.enabled},
          {"last_run_status", record.last_run ? nlohmann::json(record.last_run->status)
                                              : nlohmann::json(nullptr)},
          {"nextRunAt", or_null(next_run)}};
}

nlohmann::json run_json(const store::RunRecord& run) {
  return {{"id", run.id},
          {"automation_id", run.automation_id},
          {"revision", run.revision},
          {"level", run.level},
          {"status", run.status},
          {"supervised", run.supervised},
          {"started_by", store::to_string(run.starter)},
          {"started_at", run.started_at},
          {"finished_at", or_null(run.finished_at)},
          {"approved_at", or_null(run.approved_at)},
          {"waiting_since", or_null(run.waiting_since)},
          {"waiting_description", or_null(run.waiting_description)},
          {"reason", or_null(run.reason)},
          {"step_count", run.step_count},
          {"output_bytes", run.output_bytes}};
}

nlohmann::json run_detail_json(const store::RunDetail& detail) {
  nlohmann::json out = run_json(detail.run);
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : detail.steps) {
    steps.push_back({{"seq", step.seq},
                     {"phase", step.phase},
                     {"type", step.type},
                     {"name", or_null(step.name)},
                     {"status", step.status},
                     {"delivery", or_null(step.delivery)},
                     {"error_code", or_null(step.error_code)},
                     {"reason", or_null(step.reason)},
                     {"duration_ms", step.duration_ms},
                     {"output", step.output},
                     {"output_truncated", step.output_truncated},
                     {"check_passed", or_null(step.check_passed)}});
  }
  std::int64_t passed = 0;
  for (const auto& check : detail.checks) passed += check.passed ? 1 : 0;
  out["steps"] = std::move(steps);
  out["checks"] = {{"passed", passed},
                   {"failed", static_cast<std::int64_t>(detail.checks.size()) - passed}};
  return out;
}

nlohmann::json active_run_json(const automation::ActiveRunInfo& run) {
  return {{"run_id", run.run_id},
          {"automation_id", run.automation_id},
          {"automation_name", run.automation_name},
          {"level", run.level},
          {"status", run.status},
          {"started_at", run.started_at},
          {"waiting_description", or_null(run.waiting_description)},
          {"waiting_step", or_null(run.waiting_step)},
          {"waiting_since", or_null(run.waiting_since)},
          {"approval_deadline", or_null(run.approval_deadline)},
          {"question", run.question ? question_json(*run.question) : nlohmann::json(nullptr)}};
}

nlohmann::json question_json(const automation::Question& question) {
  return {{"kind", automation::to_string(question.kind)},
          {"title", question.title},
          {"message", question.message},
          {"options", question.options},
          {"placeholder", question.placeholder},
          {"prefill", question.prefill}};
}

nlohmann::json gate_json(const store::AutomationRecord& record, const automation::GateReport& report) {
  nlohmann::json out = automation::to_json(report);
  out["id"] = record.id;
  out["name"] = record.name;
  out["level"] = record.level;
  out["revision"] = record.revision;
  return out;
}

std::vector<std::string> failing_conditions(const automation::GateReport& report) {
  std::vector<std::string> lines;
  for (const auto& condition : report.conditions) {
    if (!condition.pass) lines.push_back(condition.text);
  }
  return lines;
}

}  // namespace companyos::daemon::methods
