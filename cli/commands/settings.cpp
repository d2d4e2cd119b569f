// settings get [KEY] / settings set KEY VALUE.
#include <iostream>
#include <memory>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

// "true", "3" and "null" are sent as JSON values; anything else as a string.
nlohmann::json value_from_argument(const std::string& text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_discarded() && (parsed.is_boolean() || parsed.is_number() || parsed.is_null())) {
    return parsed;
  }
  return text;
}

[[maybe_unused]] const bool settings_group_registered =
    register_group("settings", {"Read or change the daemon's settings.",
                                "  companyos settings get\n"
                                "  companyos settings set physical_input true\n"});

[[maybe_unused]] const bool settings_get_registered = register_command(
    methods::kSettingsGet,
    {.examples = "  companyos settings get\n  companyos settings get max_level\n",
     .by_hand = {"key"},
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto key = std::make_shared<std::string>();
       add_positional(made.cmd, methods::kSettingsGet, "key", *key);
       return [key](Invocation& out) {
         if (!key->empty()) out.params["key"] = *key;
       };
     },
     .human =
         [](const nlohmann::json& data) {
           if (data.contains("settings")) {
             render_table(std::cout, data["settings"], {{"KEY", "key"}, {"VALUE", "value"}, {"ALLOWED", "allowed"}});
           } else {
             std::cout << plain(data["value"]) << '\n';
           }
         }});

[[maybe_unused]] const bool settings_set_registered = register_command(
    methods::kSettingsSet,
    {.details = "VALUE true, 3 or null is sent as that JSON value; anything else as a string.",
     .examples = "  companyos settings set max_level 4\n"
                 "  companyos settings set unattended true\n"
                 "  companyos settings set agent_desktop_path /usr/local/bin/agent-desktop\n"
                 "  companyos settings set agent_desktop_path ''\n",
     .by_hand = {"key", "value"},
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto key = std::make_shared<std::string>();
       auto value = std::make_shared<std::string>();
       add_positional(made.cmd, methods::kSettingsSet, "key", *key);
       add_positional(made.cmd, methods::kSettingsSet, "value", *value);
       return [key, value](Invocation& out) { out.params = {{"key", *key}, {"value", value_from_argument(*value)}}; };
     },
     .human =
         [](const nlohmann::json& data) { std::cout << plain(data["key"]) << " = " << plain(data["value"]) << '\n'; }});

}  // namespace
}  // namespace companyos::cli
