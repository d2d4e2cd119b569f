// settings get [KEY] / settings set KEY VALUE.
#include <iostream>

#include "cli/command.h"
#include "cli/declared_options.h"
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

}  // namespace

void add_settings_commands(CLI::App& app, Invocation& out) {
  auto* settings = add_command(app, "settings", "Read or change the daemon's settings.",
                               "  companyos settings get\n"
                               "  companyos settings set physical_input true\n");
  settings->require_subcommand(1);

  auto key = std::make_shared<std::string>();
  auto* get = add_method_command(*settings, methods::kSettingsGet, "",
                                 "  companyos settings get\n  companyos settings get max_level\n", {"key"})
                  .cmd;
  add_positional(get, methods::kSettingsGet, "key", *key);
  get->callback([&out, key] {
    out.method = methods::kSettingsGet.name;
    if (!key->empty()) out.params["key"] = *key;
    out.human = [](const nlohmann::json& data) {
      if (data.contains("settings")) {
        render_table(std::cout, data["settings"],
                     {{"KEY", "key"}, {"VALUE", "value"}, {"ALLOWED", "allowed"}});
      } else {
        std::cout << plain(data["value"]) << '\n';
      }
    };
  });

  auto set_key = std::make_shared<std::string>();
  auto set_value = std::make_shared<std::string>();
  auto* set = add_method_command(*settings, methods::kSettingsSet,
                                 "VALUE true, 3 or null is sent as that JSON value; anything else as a string.",
                                 "  companyos settings set max_level 4\n"
                                 "  companyos settings set unattended true\n"
                                 "  companyos settings set agent_desktop_path /usr/local/bin/agent-desktop\n"
                                 "  companyos settings set agent_desktop_path ''\n",
                                 {"key", "value"})
                  .cmd;
  add_positional(set, methods::kSettingsSet, "key", *set_key);
  add_positional(set, methods::kSettingsSet, "value", *set_value);
  set->callback([&out, set_key, set_value] {
    out.method = methods::kSettingsSet.name;
    out.params = {{"key", *set_key}, {"value", value_from_argument(*set_value)}};
    out.human = [](const nlohmann::json& data) {
      std::cout << plain(data["key"]) << " = " << plain(data["value"]) << '\n';
    };
  });
}

}  // namespace companyos::cli
