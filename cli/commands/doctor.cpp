// doctor: the daemon's checks of this session, each with what was found and its fix; exit 0
// only when no check found a problem. A daemon that cannot be reached is itself the problem,
// answered here with its fix (docs/configuration.md, "companyos doctor").
#include <iostream>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

void print_checks(const nlohmann::json& data) {
  std::size_t width = 0;
  for (const auto& check : data["checks"]) width = std::max(width, plain(check["check"]).size());
  int problems = 0;
  int warnings = 0;
  for (const auto& check : data["checks"]) {
    const std::string state = plain(check["state"]);
    problems += state == "problem" ? 1 : 0;
    warnings += state == "warning" ? 1 : 0;
    const std::string name = plain(check["check"]);
    std::cout << (state == "problem" ? "PROBLEM" : state) << std::string(9 - std::min<std::size_t>(8, state.size()), ' ')
              << name << std::string(width - name.size() + 2, ' ') << plain(check["found"]) << '\n';
    if (check.contains("fix") && check["fix"].is_string()) {
      std::cout << std::string(9 + width + 2, ' ') << "fix: " << plain(check["fix"]) << '\n';
    }
  }
  std::cout << "\nready: " << (data.value("ready", false) ? "yes" : "no") << " (" << problems << " problem(s), "
            << warnings << " warning(s))\n";
}

// What doctor says when no daemon answers: nothing else can be checked.
nlohmann::json unreachable_report(const std::string& socket, const std::string& detail) {
  return {{"checks", nlohmann::json::array({{{"check", "daemon"},
                                            {"state", "problem"},
                                            {"found", "no daemon answers at " + socket + ": " + detail},
                                            {"fix", "systemctl --user start companyosd.socket (the package's unit), or "
                                                    "companyosd & in the desktop session"}}})},
          {"ready", false}};
}

[[maybe_unused]] const bool doctor_registered = register_command(
    methods::kDoctor,
    {.details = "Checks the display, XTest, the window manager, the accessibility bus, registry and switch,\n"
                "the apps (and those whose trees are empty), gio launch, the store, the socket, the\n"
                "socket unit and the notification server, as the daemon sees them. Exit status 0 only\n"
                "when no check found a problem; 1 otherwise, also when no daemon answers.",
     .examples = "  companyos doctor\n  companyos --json doctor | jq '.data.checks[] | select(.state != \"ok\")'\n",
     .bind = [](const MethodCommand&) -> CompleteRequest {
       return [](Invocation& out) {
         out.failed = [](const nlohmann::json& data) { return !data.value("ready", false); };
         out.unreachable = [](bool json, const std::string& socket, const std::string& detail) {
           const nlohmann::json report = unreachable_report(socket, detail);
           if (json) {
             std::cout << nlohmann::json{{"ok", true}, {"data", report}}.dump() << '\n';
           } else {
             print_checks(report);
           }
           return 1;
         };
       };
     },
     .human = print_checks});

}  // namespace
}  // namespace companyos::cli
