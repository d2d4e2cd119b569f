// ping, status, methods and call: the daemon itself.
#include <iostream>

#include "cli/command.h"
#include "cli/render.h"

namespace companyos::cli {

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const std::string& examples) {
  CLI::App* sub = parent.add_subcommand(name, description);
  sub->footer("Examples:\n" + examples);
  return sub;
}

void add_basic_commands(CLI::App& app, Invocation& out) {
  add_command(app, "ping", "Check that the daemon answers.", "  companyos ping\n")
      ->callback([&out] {
        out.method = "ping";
        out.human = [](const nlohmann::json&) { std::cout << "pong\n"; };
      });

  add_command(app, "status", "Show the daemon, its store and the desktop session it sees.",
              "  companyos status\n  companyos status --json | jq .data.display_server\n")
      ->callback([&out] {
        out.method = "status";
        out.human = [](const nlohmann::json& data) { render_fields(std::cout, data); };
      });

  add_command(app, "methods", "List the protocol's methods and their parameters.",
              "  companyos methods\n  companyos methods --json\n")
      ->callback([&out] {
        out.method = "methods";
        out.human = [](const nlohmann::json& data) {
          render_table(std::cout, data["methods"],
                       {{"METHOD", "name"}, {"TARGET", "target"}, {"SUMMARY", "summary"}});
        };
      });

  auto limit = std::make_shared<int>(50);
  auto* audit = add_command(app, "audit", "Show the newest audit rows (one per action; never text or values).",
                            "  companyos audit\n  companyos audit --limit 5\n");
  audit->add_option("--limit", *limit, "rows to show (1-1000)")->capture_default_str();
  audit->callback([&out, limit] {
    out.method = "audit";
    out.params = {{"limit", *limit}};
    out.human = [](const nlohmann::json& data) {
      render_table(std::cout, data["rows"],
                   {{"AT", "at"}, {"METHOD", "method"}, {"APP", "app"}, {"TARGET", "target_role"},
                    {"OUTCOME", "outcome"}, {"ERROR", "error_code"}, {"MS", "duration_ms"}});
    };
  });

  auto* call = add_command(app, "call", "Send any method with raw JSON params (for scripts and agents).",
                           "  companyos call ping\n"
                           "  companyos call settings.get '{\"key\":\"max_level\"}'\n");
  auto method = std::make_shared<std::string>();
  auto params = std::make_shared<std::string>("{}");
  call->add_option("method", *method, "method name")->required();
  call->add_option("params", *params, "params as a JSON object");
  call->callback([&out, method, params] {
    auto parsed = nlohmann::json::parse(*params, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      throw CLI::ValidationError("params", "must be a JSON object, e.g. '{\"key\":\"max_level\"}'");
    }
    out.method = *method;
    out.params = std::move(parsed);
    out.human = [](const nlohmann::json& data) { std::cout << data.dump(2) << '\n'; };
  });
}

}  // namespace companyos::cli
