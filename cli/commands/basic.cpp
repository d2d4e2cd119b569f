// ping, status, methods, audit and call: the daemon itself; and the whole command tree:
// every method's command (command_parts.h), then the CLI's own.
#include <iostream>
#include <iterator>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const std::string& examples) {
  CLI::App* sub = parent.add_subcommand(name, description);
  sub->footer("Examples:\n" + examples);
  return sub;
}

std::string argument_or_stdin(const std::string& argument) {
  if (argument != "-") return argument;
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

namespace {

// Whether status's own facts show something an automation cannot work without (doctor
// checks more, and says how to fix each).
bool shows_a_problem(const nlohmann::json& status) {
  const nlohmann::json& bus = status.value("accessibility", nlohmann::json::object());
  const nlohmann::json& x11 = status.value("x11", nlohmann::json::object());
  const nlohmann::json& store = status.value("store", nlohmann::json::object());
  return status.value("display_server", std::string()) == "none" || !bus.value("bus", false) ||
         !bus.value("registry", false) || !bus.value("enabled", true) || !status.value("gio_launch", false) ||
         (x11.is_object() && (x11.contains("error") || !x11.value("ewmh_window_manager", true))) ||
         !store.value("writable", true);
}

[[maybe_unused]] const bool ping_registered =
    register_command(methods::kPing, {.human = [](const nlohmann::json&) { std::cout << "pong\n"; }});

[[maybe_unused]] const bool status_registered = register_command(
    methods::kStatus, {.examples = "  companyos status\n  companyos status --json | jq .data.display_server\n",
                       .human = [](const nlohmann::json& data) {
                         render_fields(std::cout, data);
                         if (shows_a_problem(data)) {
                           std::cout << "\nSomething here needs fixing: `companyos doctor` says what and how.\n";
                         }
                       }});

[[maybe_unused]] const bool methods_registered = register_command(
    methods::kMethods,
    {.details = "--markdown prints this CLI's own table (the one docs/protocol.md holds)\n"
                "without asking the daemon.",
     .examples = "  companyos methods\n  companyos methods --json\n  companyos methods --markdown\n",
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto markdown = std::make_shared<bool>(false);
       made.cmd->add_flag("--markdown", *markdown, "print the methods table of docs/protocol.md from this CLI");
       return [markdown](Invocation& out) {
         if (!*markdown) return;
         out.local = [](const std::string&) {
           std::cout << methods::markdown_table();
           return 0;
         };
       };
     },
     .human =
         [](const nlohmann::json& data) {
           render_table(std::cout, data["methods"], {{"METHOD", "name"}, {"TARGET", "target"}, {"SUMMARY", "summary"}});
         }});

void print_audit_rows(const nlohmann::json& data) {
  render_table(std::cout, data["rows"],
               {{"AT", "at"}, {"BY", "origin"}, {"METHOD", "method"}, {"APP", "app"}, {"TARGET", "target_role"},
                {"OUTCOME", "outcome"}, {"ERROR", "error_code"}, {"MS", "duration_ms"}});
}

[[maybe_unused]] const bool audit_registered =
    register_command(methods::kAudit, {.details = "One row per action; never text or values.",
                                       .examples = "  companyos audit\n  companyos audit --limit 5\n",
                                       .human = print_audit_rows});

// call METHOD [PARAMS]: any method, for what the commands do not cover.
void add_call_command(CLI::App& app, Invocation& out) {
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

}  // namespace

void add_all_commands(CLI::App& app, Invocation& out) {
  add_method_commands(app, out);
  add_call_command(app, out);
  add_mcp_command(app, out);
  add_completion_command(app, out);
}

}  // namespace companyos::cli
