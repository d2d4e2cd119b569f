// What a run reads when it starts: the settings and its revision's definition.
#include <nlohmann/json.hpp>

#include "automation/run/active_run.h"
#include "automation/validation.h"

namespace companyos::automation {

Result<RunSettings> read_settings(const store::Settings& settings) {
  auto all = settings.all();
  if (!all) return std::move(all).take_error();
  RunSettings out;
  const auto& values = *all;
  out.automations_enabled = values.value("automations_enabled", true);
  out.unattended = values.value("unattended", false);
  out.max_level = values.value("max_level", 3);
  out.physical_input = values.value("physical_input", false);
  out.agent_desktop_path = values.value("agent_desktop_path", std::string());
  return out;
}

Result<Definition> parse_definition(const std::string& text) {
  auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) {
    return make_error(ErrorCode::kInternal, "the stored definition is not JSON");
  }
  auto definition = validate_definition(json, ValidationContext{});
  if (!definition) {
    return make_error(ErrorCode::kInternal,
                      "the stored definition no longer validates: " + definition.error().message,
                      definition.error().details);
  }
  return definition;
}

}  // namespace companyos::automation
