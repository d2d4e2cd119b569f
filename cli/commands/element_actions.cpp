// click, toggle, select, focus, expand, collapse, action, set-value, type and batch:
// actions on one element, named by a ref from a snapshot or by a selector.
#include <cctype>
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/declared_options.h"
#include "cli/render.h"

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
         " --app A --cell B3" + values + " [options]   (the window's one table)\n" +
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
  // --cell with --app and no REF: the window's one table (a spreadsheet's sheet).
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
    // Neither role nor name: the daemon picks the window's one table.
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
  std::cout << plain(data["delivery"]) << ": " << plain(data["method"]) << " " << plain(target["role"])
            << " \"" << plain(target["name"]) << "\" (" << plain(data["route"]) << ") "
            << milliseconds(data["ms"]);
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

void add_element_command(CLI::App& app, Invocation& out, ElementCommand command) {
  auto args = std::make_shared<ElementArgs>();
  std::vector<std::string_view> by_hand = {"ref", "expect"};
  for (const auto& argument : command.arguments) by_hand.emplace_back(argument);
  auto made = add_method_command(app, command.method, command.details + "\n" + usage_of(command), command.examples,
                                 by_hand);
  args->first_option = made.cmd->add_option("REF", args->first, "the element (unless --role/--name/--id select it)");
  if (!command.arguments.empty()) {
    std::string names;
    for (const auto& argument : command.arguments) names += (names.empty() ? "" : " ") + argument;
    made.cmd->add_option("ARGS", args->rest, "then: " + names + " (after -- if it starts with '-')");
  }
  add_expect_options(made.cmd, *args);
  auto shared = std::make_shared<ElementCommand>(std::move(command));
  made.cmd->callback([&out, args, shared, options = made.options] {
    out.params = element_params(*shared, *args, *options);
    out.method = shared->method.name;
    out.human = print_action;
  });
}

void print_batch(const nlohmann::json& data) {
  for (const auto& step : data["steps"]) {
    std::cout << plain(step["step"]) << "  " << plain(step["command"]) << "  ";
    const std::string status = step.value("status", "");
    if (status == "ok" && step["data"].contains("route")) {
      print_action(step["data"]);
    } else if (status == "ok") {
      std::cout << plain(step["data"].value("delivery", nlohmann::json("ok"))) << '\n';
    } else if (status == "error") {
      const auto& error = step["error"];
      std::cout << "error: " << plain(error["code"]) << ": " << plain(error["message"]) << " ("
                << plain(error["details"].value("delivery", nlohmann::json("not_delivered"))) << ", retry "
                << plain(error["retry"]) << ")\n";
    } else {
      std::cout << "not run\n";
    }
  }
  std::cout << plain(data["succeeded"]) << " ok, " << plain(data["failed"]) << " failed, "
            << plain(data["not_run"]) << " not run\n";
}

void add_batch_command(CLI::App& app, Invocation& out) {
  auto text = std::make_shared<std::string>();
  auto batch = add_method_command(
      app, methods::kBatch,
      "Each step runs as if called alone; prints one line per step. STEPS is a JSON array of\n"
      "{\"command\": C, \"args\": {protocol params}} (at most 100), or - to read it from stdin.\n"
      "Commands: click, toggle, select, focus, expand, collapse, action, set-value, type, press,\n"
      "focus-window, close-window. Every step is checked before the first runs. Exit status 1 if\n"
      "any step failed.",
      "  companyos batch '[{\"command\":\"set-value\",\"args\":{\"ref\":\"@s1a:e3\",\"value\":\"hi\"}},\n"
      "                    {\"command\":\"click\",\"args\":{\"ref\":\"@s1a:e4\"}}]' --stop-on-error\n"
      "  companyos batch - --stop-on-error < steps.json\n",
      {"steps"});
  add_positional(batch.cmd, methods::kBatch, "steps", *text);
  batch.cmd->callback([&out, text, options = batch.options] {
    const std::string read = argument_or_stdin(*text);
    nlohmann::json steps = nlohmann::json::parse(read, nullptr, false);
    if (steps.is_discarded() || !steps.is_array()) {
      throw CLI::ValidationError("steps", "must be a JSON array of {\"command\":…,\"args\":{…}}");
    }
    out.method = methods::kBatch.name;
    options->fill(out.params);
    out.params["steps"] = std::move(steps);
    out.human = print_batch;
    out.failed = [](const nlohmann::json& data) { return data.value("failed", 0) > 0; };
  });
}

}  // namespace

void add_element_action_commands(CLI::App& app, Invocation& out) {
  add_element_command(app, out,
                      {methods::kClick,
                       "Never by position; delivered_unverified unless an --expect-… is met. --headed\n"
                       "clicks through the pointer instead (physical input).",
                       "  companyos click @s1a:e4\n"
                       "  companyos click --app mousepad --role 'push button' --name Save\n"
                       "  companyos click e4 --app mousepad --expect-window 'Save As'\n"
                       "  companyos click @s1a:e9 --within @s1a:e7    # one of two twins: the one under e7\n"
                       "  companyos click @s1a:e4 --settle   # and the window's state once the app settled\n"
                       "  companyos settings set physical_input true && companyos click @s1a:e4 --headed\n",
                       {}});
  add_element_command(app, out,
                      {methods::kToggle, "",
                       "  companyos toggle @s1a:e7\n"
                       "  companyos toggle --app mousepad --role 'check box' --name 'Word Wrap'\n",
                       {}});
  add_element_command(app, out,
                      {methods::kSelect, "",
                       "  companyos select @s1a:e12\n"
                       "  companyos select --app demo --role 'menu item' --name Green\n",
                       {}});
  add_element_command(app, out,
                      {methods::kFocus, "",
                       "  companyos focus @s1a:e3\n"
                       "  companyos focus --app soffice --cell B3   # a spreadsheet's cell: its cursor moves there\n",
                       {}});
  add_element_command(app, out,
                      {methods::kExpand, "",
                       "  companyos expand @s1a:e20\n"
                       "  companyos expand --app demo --role 'table cell' --name Parent\n",
                       {}});
  add_element_command(app, out, {methods::kCollapse, "", "  companyos collapse @s1a:e20\n", {}});
  add_element_command(app, out,
                      {methods::kNamedAction, "`companyos get REF` lists an element's actions.",
                       "  companyos action @s1a:e20 'expand or contract'\n"
                       "  companyos action --app demo --role 'push button' --name OK activate\n",
                       {"action"}});
  add_element_command(app, out,
                      {methods::kSetValue, "A number is for sliders and spin buttons.",
                       "  companyos set-value @s1a:e3 'hello world'\n"
                       "  companyos set-value e3 --snapshot s1a 'cost $5; \"quoted\"'\n"
                       "  companyos set-value --app demo --role 'spin button' --name Level 42\n"
                       "  companyos set-value --app demo --role 'password text' --name Password \"$PW\" --secret\n"
                       "  companyos set-value --app soffice --cell A3 '=A1*A2+SUM(A1:A2)'   # the sheet's cell\n"
                       "  companyos set-value @s1a:e57 --cell Z500 'far away'   # a cell of table e57\n",
                       {"value"}});
  add_element_command(app, out,
                      {methods::kType, "",
                       "  companyos type @s1a:e3 ' and more'\n"
                       "  companyos type @s1a:e5 \"$PW\" --secret\n",
                       {"text"}});
  add_batch_command(app, out);
}

}  // namespace companyos::cli
