// click, toggle, select, focus, expand, collapse, action, set-value, type and batch:
// actions on one element, named by a ref from a snapshot or by a selector.
#include <cctype>
#include <cmath>
#include <iostream>
#include <iterator>
#include <memory>

#include "cli/command.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

// What every element action takes besides its own arguments.
struct ElementArgs {
  // REF (unless a selector is given), then the arguments. Two options, not one list: CLI11
  // ends a list at "--", and "--" is how a value starting with '-' is passed.
  std::string first;
  std::vector<std::string> rest;
  CLI::Option* first_option = nullptr;
  std::string snapshot, app, role, name, id, window, title;
  bool strict = false, secret = false, headed = false;
  std::string expect_window, expect_text;
  std::vector<std::string> expect_state;  // REF STATE
  int expect_timeout = 0;
  CLI::Option* role_option = nullptr;
  CLI::Option* name_option = nullptr;
  CLI::Option* id_option = nullptr;
  CLI::Option* timeout_option = nullptr;
};

// One element command: its name, protocol method, what its arguments after the target are
// called in params, and which extra flags it takes.
struct ElementCommand {
  std::string name;
  std::string method;
  std::string description;
  std::string examples;
  std::vector<std::string> arguments;  // params keys of the positionals after REF
  bool secret = false;                 // set-value, type
  bool headed = false;                 // click
};

std::string usage_of(const ElementCommand& command) {
  std::string values;
  for (const auto& argument : command.arguments) {
    std::string upper = argument;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    values += " " + upper;
  }
  return "Usage: companyos " + command.name + " REF" + values + " [options]\n" +
         "       companyos " + command.name + " --app A --role R --name N [--id ID]" + values +
         " [options]\n" + "REF is @<snapshot>:e<N> (from snapshot or find), or e<N> with --snapshot ID,\n"
         "or e<N> with --app (and --window/--title): that window's newest snapshot.\n"
         "A value that starts with '-' goes after --, e.g. set-value REF -- -5.";
}

void add_target_options(CLI::App* cmd, ElementArgs& args) {
  cmd->add_option("--snapshot", args.snapshot, "the snapshot a bare ref e<N> comes from");
  cmd->add_option("--app", args.app, "selector: application name (with a bare ref: whose snapshot)");
  args.role_option = cmd->add_option("--role", args.role, "selector: role as printed, e.g. 'push button'");
  args.name_option = cmd->add_option("--name", args.name, "selector: exact accessible name");
  args.id_option = cmd->add_option("--id", args.id, "selector: exact accessible id");
  auto* window = cmd->add_option("--window", args.window, "only this window id (from `companyos windows`)");
  auto* title = cmd->add_option("--title", args.title, "only the window with this exact title");
  window->excludes(title);
  cmd->add_flag("--strict", args.strict, "refuse unless the element's SHA-256 fingerprint still matches");
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

nlohmann::json element_params(const ElementCommand& command, const ElementArgs& args) {
  const bool selector = args.role_option->count() + args.name_option->count() + args.id_option->count() > 0;
  std::vector<std::string> positionals;
  if (args.first_option->count() > 0) positionals.push_back(args.first);
  positionals.insert(positionals.end(), args.rest.begin(), args.rest.end());
  const std::size_t wanted = command.arguments.size() + (selector ? 0 : 1);
  if (positionals.size() != wanted) {
    throw CLI::ValidationError(command.name, selector ? "with --role/--name, give only the " +
                                                            std::to_string(wanted) + " argument(s) after the selector"
                                                      : "give REF and " + std::to_string(wanted - 1) +
                                                            " argument(s) after it");
  }
  nlohmann::json params = nlohmann::json::object();
  auto values = positionals.begin();
  if (selector) {
    params["role"] = args.role;
    params["name"] = args.name;
    if (args.id_option->count() > 0) params["id"] = args.id;
  } else {
    params["ref"] = *values++;
  }
  if (!args.snapshot.empty()) params["snapshot"] = args.snapshot;
  if (!args.app.empty()) params["app"] = args.app;
  if (!args.window.empty()) params["window"] = args.window;
  if (!args.title.empty()) params["title"] = args.title;
  for (const auto& key : command.arguments) params[key] = *values++;
  if (args.strict) params["strict"] = true;
  if (args.secret) params["secret"] = true;
  if (args.headed) params["headed"] = true;
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
}

void add_element_command(CLI::App& app, Invocation& out, ElementCommand command) {
  auto args = std::make_shared<ElementArgs>();
  auto* cmd = add_command(app, command.name, command.description + "\n" + usage_of(command), command.examples);
  args->first_option = cmd->add_option("REF", args->first, "the element (unless --role/--name/--id select it)");
  if (!command.arguments.empty()) {
    std::string names;
    for (const auto& argument : command.arguments) names += (names.empty() ? "" : " ") + argument;
    cmd->add_option("ARGS", args->rest, "then: " + names + " (after -- if it starts with '-')");
  }
  add_target_options(cmd, *args);
  add_expect_options(cmd, *args);
  if (command.secret) {
    cmd->add_flag("--secret", args->secret, "the text is secret (needed for password fields): never shown");
  }
  if (command.headed) {
    cmd->add_flag("--headed", args->headed,
                  "click through the pointer (XTest): needs the setting physical_input=true");
  }
  auto shared = std::make_shared<ElementCommand>(std::move(command));
  cmd->callback([&out, args, shared] {
    out.params = element_params(*shared, *args);
    out.method = shared->method;
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
  struct BatchArgs {
    std::string steps;
    bool stop_on_error = false;
  };
  auto args = std::make_shared<BatchArgs>();
  auto* cmd = add_command(
      app, "batch",
      "Run actions in order, each as if called alone; prints one line per step.\n"
      "STEPS is a JSON array of {\"command\": C, \"args\": {protocol params}} (at most 100), or - to\n"
      "read it from stdin. Commands: click, toggle, select, focus, expand, collapse, action,\n"
      "set-value, type, press, focus-window, close-window. Every step is checked before the\n"
      "first runs. Exit status 1 if any step failed.",
      "  companyos batch '[{\"command\":\"set-value\",\"args\":{\"ref\":\"@s1a:e3\",\"value\":\"hi\"}},\n"
      "                    {\"command\":\"click\",\"args\":{\"ref\":\"@s1a:e4\"}}]' --stop-on-error\n"
      "  companyos batch - --stop-on-error < steps.json\n");
  cmd->add_option("steps", args->steps, "JSON array of steps, or - for stdin")->required();
  cmd->add_flag("--stop-on-error", args->stop_on_error, "report the steps after a failure as not run");
  cmd->callback([&out, args] {
    std::string text = args->steps;
    if (text == "-") text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    nlohmann::json steps = nlohmann::json::parse(text, nullptr, false);
    if (steps.is_discarded() || !steps.is_array()) {
      throw CLI::ValidationError("steps", "must be a JSON array of {\"command\":…,\"args\":{…}}");
    }
    out.method = "batch";
    out.params = {{"steps", std::move(steps)}, {"stop_on_error", args->stop_on_error}};
    out.human = print_batch;
    out.failed = [](const nlohmann::json& data) { return data.value("failed", 0) > 0; };
  });
}

}  // namespace

void add_element_action_commands(CLI::App& app, Invocation& out) {
  add_element_command(app, out,
                      {"click", "click",
                       "Click an element by its action (click/press/activate), never by position;\n"
                       "delivered_unverified unless an --expect-… is met. --headed clicks through the\n"
                       "pointer instead (physical input).",
                       "  companyos click @s1a:e4\n"
                       "  companyos click --app mousepad --role 'push button' --name Save\n"
                       "  companyos click e4 --app mousepad --expect-window 'Save As'\n"
                       "  companyos settings set physical_input true && companyos click @s1a:e4 --headed\n",
                       {}, false, true});
  add_element_command(app, out,
                      {"toggle", "toggle", "Flip a check box or toggle button; verified by its checked state.",
                       "  companyos toggle @s1a:e7\n"
                       "  companyos toggle --app mousepad --role 'check box' --name 'Word Wrap'\n",
                       {}, false, false});
  add_element_command(app, out,
                      {"select", "select", "Select an item in its list, combo box or tab list; verified.",
                       "  companyos select @s1a:e12\n"
                       "  companyos select --app demo --role 'menu item' --name Green\n",
                       {}, false, false});
  add_element_command(app, out,
                      {"focus", "focus", "Give an element the keyboard focus; verified by its focused state.",
                       "  companyos focus @s1a:e3\n", {}, false, false});
  add_element_command(app, out,
                      {"expand", "expand", "Expand a tree row or expander; already expanded sends nothing.",
                       "  companyos expand @s1a:e20\n"
                       "  companyos expand --app demo --role 'table cell' --name Parent\n",
                       {}, false, false});
  add_element_command(app, out,
                      {"collapse", "collapse", "Collapse a tree row or expander; already collapsed sends nothing.",
                       "  companyos collapse @s1a:e20\n", {}, false, false});
  add_element_command(app, out,
                      {"action", "action", "Perform an action the element lists (see `companyos get REF`), by name.",
                       "  companyos action @s1a:e20 'expand or contract'\n"
                       "  companyos action --app demo --role 'push button' --name OK activate\n",
                       {"action"}, false, false});
  add_element_command(app, out,
                      {"set-value", "set_value",
                       "Replace an element's text (or number, for sliders and spin buttons) and read it back.",
                       "  companyos set-value @s1a:e3 'hello world'\n"
                       "  companyos set-value e3 --snapshot s1a 'cost $5; \"quoted\"'\n"
                       "  companyos set-value --app demo --role 'spin button' --name Level 42\n"
                       "  companyos set-value --app demo --role 'password text' --name Password \"$PW\" --secret\n",
                       {"value"}, true, false});
  add_element_command(app, out,
                      {"type", "type", "Insert text at the caret and read the text back.",
                       "  companyos type @s1a:e3 ' and more'\n"
                       "  companyos type @s1a:e5 \"$PW\" --secret\n",
                       {"text"}, true, false});
  add_batch_command(app, out);
}

}  // namespace companyos::cli
