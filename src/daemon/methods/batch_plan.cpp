#include "daemon/methods/batch_plan.h"

#include <string>

namespace companyos::daemon::methods {
namespace {

// The commands a batch may run (declared batchable: actions only, never observation or
// settings), for the refusal's hint.
std::string batchable_commands(const MethodTable& table) {
  std::string commands;
  for (const MethodSpec* spec : table.methods()) {
    if ((spec->decl.flags & declared::kFlagBatchable) == 0) continue;
    if (!commands.empty()) commands += ", ";
    commands += spec->decl.command;
  }
  return commands;
}

Error invalid_step(std::size_t index, std::string message, nlohmann::json details = nlohmann::json::object(),
                   std::string suggestion = {}) {
  details["step"] = index;
  return make_error(ErrorCode::kInvalidArgs, "step " + std::to_string(index) + ": " + std::move(message),
                    std::move(details), std::move(suggestion));
}

Result<BatchStep> plan_step(std::size_t index, const nlohmann::json& step, const MethodTable& table) {
  if (!step.is_object()) return invalid_step(index, "must be an object {\"command\":…,\"args\":{…}}");
  for (const auto& [key, value] : step.items()) {
    if (key != "command" && key != "args") {
      return invalid_step(index, "unknown field \"" + key + "\"", {{"param", key}});
    }
  }
  if (!step.contains("command") || !step["command"].is_string()) {
    return invalid_step(index, "command must be a string", {{"param", "command"}});
  }
  BatchStep planned;
  planned.command = step["command"].get<std::string>();
  if (planned.command == "batch") return invalid_step(index, "a batch cannot contain a batch");
  planned.spec = table.find_command(planned.command);
  if (planned.spec == nullptr || (planned.spec->decl.flags & declared::kFlagBatchable) == 0) {
    return invalid_step(index, "unknown command \"" + planned.command + "\"", {{"command", planned.command}},
                        "commands: " + batchable_commands(table));
  }
  if (step.contains("args")) {
    if (!step["args"].is_object()) return invalid_step(index, "args must be an object", {{"param", "args"}});
    planned.args = step["args"];
  }
  if (auto fits = declared::check_params(planned.spec->decl, planned.args); !fits) {
    Error error = std::move(fits).take_error();
    return invalid_step(index, std::move(error.message), std::move(error.details), std::move(error.suggestion));
  }
  return planned;
}

}  // namespace

Result<std::vector<BatchStep>> plan_batch(const nlohmann::json& steps, const MethodTable& table) {
  if (!steps.is_array() || steps.empty()) {
    return make_error(ErrorCode::kInvalidArgs, "steps must be a non-empty array",
                      {{"param", "steps"}}, R"(e.g. [{"command":"click","args":{"ref":"@s1a:e4"}}])");
  }
  if (steps.size() > kMaxBatchSteps) {
    return make_error(ErrorCode::kInvalidArgs,
                      "a batch takes at most " + std::to_string(kMaxBatchSteps) + " steps",
                      {{"param", "steps"}, {"count", steps.size()}, {"max", kMaxBatchSteps}},
                      "split it into several batches");
  }
  std::vector<BatchStep> planned;
  planned.reserve(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    auto step = plan_step(i, steps[i], table);
    if (!step) return std::move(step).take_error();
    planned.push_back(std::move(step).value());
  }
  return planned;
}

}  // namespace companyos::daemon::methods
