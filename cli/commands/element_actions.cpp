// click, toggle, select, focus, expand, collapse, action, set-value, type and batch:
// actions on one element, named by a ref from a snapshot or by a selector.
#include <cctype>
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/command_parts.h"
#include "cli/render.h"
#include "companyos/reply_fields.h"

namespace companyos::cli {
namespace {

// What an element action takes by hand: REF (unless a selector is given), its own
// arguments, and the --expect-… options that build one `expect` object. Two positionals,
// not one list: CLI11 ends a list at "--", and "--" is how a value starting with '-' is passed.
struct ElementArgs {
  std::string first;
  std::vector<std::string> rest;
  CLI::Option* first_option = nullptr;
  std::string expect_window, expect_text;
  std::vector<std::string> expect_state;  // REF STATE
  int expect_timeout = 0;
  CLI::Option* timeout_option = nullptr;
};

// One element command: its declaration, what its positionals after the target are called
// in params, and its help beyond the declaration's.
struct ElementCommand {
  const methods::MethodDeclaration& method;
  std::string details;
  std::string examples;
  std::vector<std::string> arguments;  // params keys of the positionals after REF
};

std::string usage_of(const ElementCommand& command) {
  std::string values;
  for (const auto& argument : command.arguments) {
    std::string upper = argument;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    values += " " + upper;
  }
  const std::string name(command.method.command);
  return "Usage: companyos " + name + " REF" + values + " [options]\n" + "       companyos " + name +
         " --app A --role R --name N [--id ID]" + values + " [options]\n" + "       companyos " + name +
         " --app A --cell B3" + values + " [options]   (the window's one table on screen)\n" +
         "REF is @<snapshot>:e<N> (from snapshot or find), or e<N> with --snapshot ID,\n"
         "or e<N> with --app (and --window/--title): that window's newest snapshot.\n"
         "A value that starts with '-' goes after --, e.g. set-value REF -- -5.";
}

void add_expect_options(CLI::App* cmd, ElementArgs& args) {
  auto* window = cmd->add_option("--expect-window", args.expect_window,
                                 "verified only if a new window with this title appears");
  auto* state = cmd->add_option("--expect-state", args.expect_state,
                                "verified only if element REF gets STATE (e.g. checked)")
                    ->expected(2)
                    ->type_name("REF STATE");
  auto* text = cmd->add_option("--expect-text", args.expect_text,
                               "verified only if this text appears in the target's window");
  window->excludes(state)->excludes(text);
  state->excludes(text);
  args.timeout_option = cmd->add_option("--expect-timeout", args.expect_timeout,
                                        "how long to wait for the expectation, in ms (default 3000)")
                            ->check(CLI::Range(1, 60000));
}

nlohmann::json expectation_params(const ElementArgs& args) {
  nlohmann::json expect;
  if (!args.expect_window.empty()) expect = {{"window", args.expect_window}};
  if (!args.expect_text.empty()) expect = {{"text", args.expect_text}};
  if (args.expect_state.size() == 2) expect = {{"ref", args.expect_state[0]}, {"state", args.expect_state[1]}};
  if (args.timeout_option->count() > 0) {
    if (expect.is_null()) {
      throw CLI::ValidationError("--expect-timeout", "needs --expect-window, --expect-state or --expect-text");
    }
    expect["timeout_ms"] = args.expect_timeout;
  }
  return expect;
}

nlohmann::json element_params(const ElementCommand& command, const ElementArgs& args,
                              const DeclaredOptions& options) {
  std::vector<std::string> positionals;
  if (args.first_option->count() > 0) positionals.push_back(args.first);
  positionals.insert(positionals.end(), args.rest.begin(), args.rest.end());
  // --cell with --app and no REF: the window's one table on screen (a spreadsheet's sheet).
  const bool the_table = options.given("cell") && !options.given("role") && !options.given("name") &&
                         options.given("app") && positionals.size() == command.arguments.size();
  const bool selector = options.given("role") || options.given("name") || options.given("id") || the_table;
  const std::size_t wanted = command.arguments.size() + (selector ? 0 : 1);
  const std::string name(command.method.command);
  if (positionals.size() != wanted) {
    throw CLI::ValidationError(name, selector ? "with --role/--name, give only the " + std::to_string(wanted) +
                                                    " argument(s) after the selector"
                                              : "give REF and " + std::to_string(wanted - 1) +
                                                    " argument(s) after it");
  }
  nlohmann::json params = nlohmann::json::object();
  options.fill(params);
  auto values = positionals.begin();
  if (the_table) {
    // Neither role nor name: the daemon picks the window's one table on screen.
  } else if (selector) {
    // The selector form always sends role and name; one not given is empty.
    if (!params.contains("role")) params["role"] = "";
    if (!params.contains("name")) params["name"] = "";
  } else {
    params["ref"] = *values++;
  }
  for (const auto& key : command.arguments) params[key] = *values++;
  if (auto expect = expectation_params(args); !expect.is_null()) params["expect"] = std::move(expect);
  return params;
}

std::string milliseconds(const nlohmann::json& ms) {
  return ms.is_number() ? std::to_string(std::lround(ms.get<double>())) + " ms" : "- ms";
}

// One line: delivery, method, target and route, e.g.
//   delivered_verified: set-value text "Text" (EditableText.SetTextContents) 7 ms
// then what kept it unverified, if anything. No value is ever printed.
void print_action(const nlohmann::json& data) {
  const auto& target = data["target"];
  std::cout << plain(data[reply_fields::outcome::kDelivery]) << ": " << plain(data["method"]) << " " << plain(target["role"])
            << " \"" << plain(target["name"]) << "\" (" << plain(data[reply_fields::outcome::kRoute]);
  if (data.contains(reply_fields::outcome::kFirstRoute)) {
    std::cout << ", after " << plain(data[reply_fields::outcome::kFirstRoute]);
  }
  std::cout << ") " << milliseconds(data["ms"]);
  if (data.value("already", false)) std::cout << " (already so: nothing sent)";
  if (!data.value("answered", true)) std::cout << " (the app is still busy with it)";
  std::cout << '\n';
  const auto& verification = data["verification"];
  if (verification.is_object() && !verification.value("matched", false)) {
    std::cout << "  read-back (" << plain(verification["check"]) << ") did not match\n";
  }
  if (data.contains("expectation")) {
    const auto& expectation = data["expectation"];
    std::cout << "  expectation: " << plain(expectation.value("reason", nlohmann::json())) << " after "
              << milliseconds(expectation.value("waited_ms", nlohmann::json())) << '\n';
  }
  render_settled_state(std::cout, data);
}

// The parts of an element command: REF or a selector, the arguments after it, --expect-….
CommandParts element_command(ElementCommand command) {
  std::vector<std::string_view> by_hand = {"ref", "expect"};
  auto shared = std::make_shared<const ElementCommand>(std::move(command));
  for (const auto& argument : shared->arguments) by_hand.emplace_back(argument);
  CommandParts parts;
  parts.details = shared->details;
  parts.examples = shared->examples;
  parts.by_hand = std::move(by_hand);
  parts.bind = [shared](const MethodCommand& made) -> CompleteRequest {
    // The usage reads the declaration, which exists only once static initialization is over.
    made.cmd->description(made.cmd->get_description() + (shared->details.empty() ? "\n" : "") + "\n" +
                          usage_of(*shared));
    auto args = std::make_shared<ElementArgs>();
    args->first_option = made.cmd->add_option("REF", args->first, "the element (unless --role/--name/--id select it)");
    if (!shared->arguments.empty()) {
      std::string names;
      for (const auto& argument : shared->arguments) names += (names.empty() ? "" : " ") + argument;
      made.cmd->add_option("ARGS", args->rest, "then: " + names + " (after -- if it starts with '-')");
    }
    add_expect_options(made.cmd, *args);
    return [args, shared, options = made.options](Invocation& out) {
      out.params = element_params(*shared, *args, *options);
    };
  };
  parts.human = print_action;
  return parts;
}

bool register_element_command(ElementCommand command) {
  const methods::MethodDeclaration& method = command.method;
  return register_command(method, element_command(std::move(command)));
}

void print_batch(const nlohmann::json& data) {
  for (const auto& step : data["steps"]) {
    std::cout << plain(step["step"]) << "  " << plain(step["command"]) << "  ";
    const std::string status = step.value("status", "");
    if (status == "ok" && step["data"].contains(reply_fields::outcome::kRoute)) {
      print_action(step["data"]);
    } else if (status == "ok") {
      std::cout << plain(step["data"].value(reply_fields::outcome::kDelivery, nlohmann::json("ok"))) << '\n';
    } else if (status == "error") {
      const auto& error = step["error"];
      std::cout << "error: " << plain(error["code"]) << ": " << plain(error["message"]) << " ("
                << plain(error["details"].value(reply_fields::outcome::kDelivery, nlohmann::json("not_delivered"))) << ", retry "
                << plain(error["retry"]) << ")\n";
    } else {
      std::cout << "not run\n";
    }
  }
  std::cout << plain(data["succeeded"]) << " ok, " << plain(data["failed"]) << " failed, "
            << plain(data["not_run"]) << " not run\n";
}

[[maybe_unused]] const bool batch_registered = register_command(
    methods::kBatch,
    {.details = "Each step runs as if called alone; prints one line per step. STEPS is a JSON array of\n"
                "{\"command\": C, \"args\": {protocol params}} (at most 100), or - to read it from stdin.\n"
                "Commands: click, toggle, select, focus, expand, collapse, action, set-value, type, press,\n"
                "focus-window, close-window. Every step is checked before the first runs. Exit status 1 if\n"
                "any step failed.",
     .examples = "  companyos batch '[{\"command\":\"set-value\",\"args\":{\"ref\":\"@s1a:e3\",\"value\":\"hi\"}},\n"
                 "                    {\"command\":\"click\",\"args\":{\"ref\":\"@s1a:e4\"}}]' --stop-on-error\n"
                 "  companyos batch - --stop-on-error < steps.json\n",
     .by_hand = {"steps"},
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto text = std::make_shared<std::string>();
       add_positional(made.cmd, methods::kBatch, "steps", *text);
       return [text](Invocation& out) {
         const std::string read = argument_or_stdin(*text);
         nlohmann::json steps = nlohmann::json::parse(read, nullptr, false);
         if (steps.is_discarded() || !steps.is_array()) {
           throw CLI::ValidationError("steps", "must be a JSON array of {\"command\":…,\"args\":{…}}");
         }
         out.params["steps"] = std::move(steps);
         out.failed = [](const nlohmann::json& data) { return data.value("failed", 0) > 0; };
       };
     },
     .human = print_batch});

[[maybe_unused]] const bool click_registered =
    register_element_command({methods::kClick,
                              "Never by position; delivered_unverified unless an --expect-… is met. --headed\n"
                              "clicks through the pointer instead (physical input).",
                              "  companyos click @s1a:e4\n"
                              "  companyos click --app mousepad --role 'push button' --name Save\n"
                              "  companyos click e4 --app mousepad --expect-window 'Save As'\n"
                              "  companyos click @s1a:e9 --within @s1a:e7    # one of two twins: the one under e7\n"
                              "  companyos click @s1a:e4 --settle   # and the window's state once the app settled\n"
                              "  companyos settings set physical_input true && companyos click @s1a:e4 --headed\n",
                              {}});
[[maybe_unused]] const bool toggle_registered =
    register_element_command({methods::kToggle,
                              "",
                              "  companyos toggle @s1a:e7\n"
                              "  companyos toggle --app mousepad --role 'check box' --name 'Word Wrap'\n",
                              {}});
[[maybe_unused]] const bool select_registered =
    register_element_command({methods::kSelect,
                              "",
                              "  companyos select @s1a:e12\n"
                              "  companyos select --app demo --role 'menu item' --name Green\n",
                              {}});
[[maybe_unused]] const bool focus_registered = register_element_command(
    {methods::kFocus,
     "",
     "  companyos focus @s1a:e3\n"
     "  companyos focus --app soffice --cell B3   # a spreadsheet's cell: its cursor moves there\n",
     {}});
[[maybe_unused]] const bool expand_registered =
    register_element_command({methods::kExpand,
                              "",
                              "  companyos expand @s1a:e20\n"
                              "  companyos expand --app demo --role 'table cell' --name Parent\n",
                              {}});
[[maybe_unused]] const bool collapse_registered =
    register_element_command({methods::kCollapse, "", "  companyos collapse @s1a:e20\n", {}});
[[maybe_unused]] const bool named_action_registered =
    register_element_command({methods::kNamedAction,
                              "`companyos get REF` lists an element's actions.",
                              "  companyos action @s1a:e20 'expand or contract'\n"
                              "  companyos action --app demo --role 'push button' --name OK activate\n",
                              {"action"}});
[[maybe_unused]] const bool set_value_registered = register_element_command(
    {methods::kSetValue,
     "A number is for sliders and spin buttons.",
     "  companyos set-value @s1a:e3 'hello world'\n"
     "  companyos set-value e3 --snapshot s1a 'cost $5; \"quoted\"'\n"
     "  companyos set-value --app demo --role 'spin button' --name Level 42\n"
     "  companyos set-value --app demo --role 'password text' --name Password \"$PW\" --secret\n"
     "  companyos set-value --app soffice --cell A3 '=A1*A2+SUM(A1:A2)'   # the sheet's cell\n"
     "  companyos set-value @s1a:e57 --cell Z500 'far away'   # a cell of table e57\n",
     {"value"}});
[[maybe_unused]] const bool type_registered = register_element_command({methods::kType,
                                                                        "",
                                                                        "  companyos type @s1a:e3 ' and more'\n"
                                                                        "  companyos type @s1a:e5 \"$PW\" --secret\n",
                                                                        {"text"}});

}  // namespace
}  // namespace companyos::cli
