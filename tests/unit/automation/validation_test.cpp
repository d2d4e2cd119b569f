#include "automation/validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "a11y/wait.h"

namespace companyos::automation {
namespace {

using json = nlohmann::json;
using testing::HasSubstr;

constexpr std::int64_t kNow = 1'767'225'600;  // 2026-01-01 00:00 UTC

ValidationContext at_now() { return ValidationContext{kNow, {}}; }

json base() {
  return json::parse(R"({"name": "nightly note",
    "actions": [{"type": "command", "executable": "/usr/bin/touch", "argv": ["/srv/note"],
                 "cwd": "/"}]})");
}

using Change = std::function<void(json&)>;

Change set(std::string key, json value) {
  return [key, value](json& d) { d[key] = value; };
}
Change erase(std::string key) {
  return [key](json& d) { d.erase(key); };
}
// Replaces actions[0] with the step written as JSON text.
Change step(std::string text) {
  return [text](json& d) { d["actions"][0] = json::parse(text); };
}
// Sets one field of actions[0].
Change field(std::string key, json value) {
  return [key, value](json& d) { d["actions"][0][key] = value; };
}
Change both(Change first, Change second) {
  return [first, second](json& d) {
    first(d);
    second(d);
  };
}

struct Bad {
  std::string_view what;
  Change change;
  std::string path;
  std::string message_part;
};

void expect_single_problem(const Bad& c) {
  SCOPED_TRACE(std::string(c.what));
  json input = base();
  c.change(input);
  auto result = validate_definition(input, at_now());
  ASSERT_FALSE(result.ok()) << input.dump();
  const Error& error = result.error();
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgs);
  const json& problems = error.details["problems"];
  ASSERT_EQ(problems.size(), 1u) << problems.dump(1);
  EXPECT_EQ(error.details["problem_count"], 1);
  EXPECT_EQ(problems[0]["path"], c.path) << problems.dump();
  EXPECT_THAT(problems[0]["message"].get<std::string>(), HasSubstr(c.message_part));
  EXPECT_EQ(error.message, to_string(Problem{c.path, problems[0]["message"]}));
}

TEST(AutomationValidation, DefinitionFieldsFollowTheirRules) {
  const Bad cases[] = {
      {"not an object", [](json& d) { d = json::array(); }, "", "must be a JSON object"},
      {"unknown field", set("colour", "red"), "colour", "unknown field (a definition has: name,"},
      {"name missing", erase("name"), "name", "required"},
      {"name empty", set("name", ""), "name", "must be 1 to 120 characters, got 0"},
      {"name too long", set("name", std::string(121, 'n')), "name", "got 121"},
      {"name with a newline", set("name", "a\nb"), "name", "control characters"},
      {"name with a C1 control", set("name", "a\u0085b"), "name", "control characters"},
      {"name only spaces", set("name", "   "), "name", "only spaces"},
      {"name a number", set("name", 5), "name", "must be a string, not a number"},
      {"name with NUL", set("name", std::string("a\0b", 3)), "name", "NUL"},
      {"name not UTF-8", set("name", std::string("caf\xC3", 4)), "name", "valid UTF-8"},
      {"name overlong UTF-8", set("name", std::string("\xC0\xAF", 2)), "name", "valid UTF-8"},
      {"enabled a string", set("enabled", "yes"), "enabled", "must be true or false, not a string"},
      {"schedule bad minute", set("schedule", "61 * * * *"), "schedule", "field 1 (minute) \"61\""},
      {"schedule six fields", set("schedule", "* * * * * *"), "schedule", "expected 5 fields"},
      {"schedule never fires", set("schedule", "0 0 31 2 *"), "schedule", "never fires"},
      {"schedule empty", set("schedule", ""), "schedule", "empty expression"},
      {"schedule a number", set("schedule", 5), "schedule", "must be a string"},
      {"timezone unknown", set("timezone", "Mars/Olympus"), "timezone",
       "\"Mars/Olympus\": not in the system time zone database"},
      {"timezone localtime", set("timezone", "localtime"), "timezone", "not an IANA zone name"},
      {"timezone null", set("timezone", nullptr), "timezone", "must be a string, not null"},
      {"maxRetries above 5", set("maxRetries", 6), "maxRetries", "from 0 to 5, got 6"},
      {"maxRetries negative", set("maxRetries", -1), "maxRetries", "got -1"},
      {"maxRetries fractional", set("maxRetries", 1.5), "maxRetries",
       "must be a whole number from 0 to 5, got 1.5"},
      {"maxRetries a string", set("maxRetries", "3"), "maxRetries", "not a string"},
      {"retryIntervalSeconds 0", set("retryIntervalSeconds", 0), "retryIntervalSeconds",
       "from 1 to 86400, got 0"},
      {"retryIntervalSeconds above a day", set("retryIntervalSeconds", 86401),
       "retryIntervalSeconds", "got 86401"},
      {"historyLimit 0", set("historyLimit", 0), "historyLimit", "from 1 to 1000, got 0"},
      {"historyLimit 1001", set("historyLimit", 1001), "historyLimit", "got 1001"},
      {"historyLimit beyond int64", set("historyLimit", std::uint64_t{18446744073709551615u}),
       "historyLimit", "got 18446744073709551615"},
      {"retry budget longer than the gap",
       both(set("schedule", "* * * * *"),
            both(set("maxRetries", 5), set("retryIntervalSeconds", 12))),
       "maxRetries", "retry budget: maxRetries 5 x retryIntervalSeconds 12 = 60 s"},
      {"actions missing", erase("actions"), "actions", "required"},
      {"actions empty", set("actions", json::array()), "actions", "at least one step"},
      {"actions an object", set("actions", json::object()), "actions",
       "must be an array of steps, not an object"},
      {"preconditions a string", set("preconditions", "x"), "preconditions",
       "must be an array of steps"},
      {"postActions null", set("postActions", nullptr), "postActions", "not null"},
      {"51 steps",
       [](json& d) {
         for (int i = 0; i < 50; ++i) d["postActions"].push_back(d["actions"][0]);
       },
       "", "51 steps in all; at most 50"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, StepsNeedAKnownTypeAndOnlyItsFields) {
  const Bad cases[] = {
      {"step a number", set("actions", json::array({3})), "actions[0]",
       "a step must be a JSON object, not a number"},
      {"type missing", step(R"({"app": "x"})"), "actions[0].type", "required"},
      {"type unknown", step(R"({"type": "tap"})"), "actions[0].type",
       "unknown step type \"tap\"; known: command,"},
      {"type a number", step(R"({"type": 3})"), "actions[0].type", "must be a string"},
      {"unknown field", field("shell", true), "actions[0].shell",
       "unknown field (a command step has: type, description, executable, argv, cwd, "
       "timeoutSeconds, env, undo)"},
      {"odd unknown field", field("a b", 1), "actions[0][\"a b\"]", "unknown field"},
      {"description empty", field("description", ""), "actions[0].description",
       "must be 1 to 500 characters, got 0"},
      {"description too long", field("description", std::string(501, 'd')),
       "actions[0].description", "got 501"},
      {"description null", field("description", nullptr), "actions[0].description", "not null"},
      {"effect in a precondition",
       set("preconditions", json::array({json::parse(
                                R"({"type": "click", "app": "gedit",
                                    "target": {"role": "push button", "name": "OK"}})")})),
       "preconditions[0]", "a precondition must have no effect: click belongs in actions"},
      {"command in a precondition",
       [](json& d) { d["preconditions"] = json::array({d["actions"][0]}); }, "preconditions[0]",
       "command belongs in actions"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, CommandsRunProgramsFromArgv) {
  const Bad cases[] = {
      {"executable missing", [](json& d) { d["actions"][0].erase("executable"); },
       "actions[0].executable", "required"},
      {"executable empty", field("executable", ""), "actions[0].executable", "must not be empty"},
      {"executable relative", field("executable", "bin/tool"), "actions[0].executable",
       "not a relative path"},
      {"executable dot-relative", field("executable", "./tool"), "actions[0].executable",
       "not a relative path"},
      {"executable a directory", field("executable", "/usr/bin/"), "actions[0].executable",
       "not a directory"},
      {"executable with a space", field("executable", "my tool"), "actions[0].executable",
       "bare program name"},
      {"executable ..", field("executable", ".."), "actions[0].executable", "bare program name"},
      {"executable sh", field("executable", "sh"), "actions[0].executable",
       "\"sh\" is a shell, script interpreter or command wrapper"},
      {"executable /bin/bash", field("executable", "/bin/bash"), "actions[0].executable",
       "\"bash\" is a shell"},
      {"executable python3.11", field("executable", "python3.11"), "actions[0].executable",
       "interpreter"},
      {"executable sudo", field("executable", "/usr/bin/sudo"), "actions[0].executable", "wrapper"},
      {"executable too long", field("executable", "/" + std::string(4096, 'x')),
       "actions[0].executable", "at most 4096 bytes"},
      {"argv a string", field("argv", "-v"), "actions[0].argv", "must be an array of strings"},
      {"argv 101 entries", field("argv", std::vector<std::string>(101, "a")), "actions[0].argv",
       "at most 100 arguments, got 101"},
      {"argv entry a number", field("argv", json::array({"a", 2})), "actions[0].argv[1]",
       "must be a string, not a number"},
      {"argv entry above 16 KiB", field("argv", json::array({std::string(16385, 'a')})),
       "actions[0].argv[0]", "at most 16384 bytes, got 16385"},
      {"argv entry with NUL", field("argv", json::array({std::string("a\0b", 3)})),
       "actions[0].argv[0]", "NUL"},
      {"cwd missing", [](json& d) { d["actions"][0].erase("cwd"); }, "actions[0].cwd", "required"},
      {"cwd relative", field("cwd", "tmp"), "actions[0].cwd", "must be an absolute path"},
      {"cwd empty", field("cwd", ""), "actions[0].cwd", "must be an absolute path"},
      {"timeoutSeconds 0", field("timeoutSeconds", 0), "actions[0].timeoutSeconds",
       "from 1 to 86400, got 0"},
      {"timeoutSeconds above a day", field("timeoutSeconds", 86401), "actions[0].timeoutSeconds",
       "got 86401"},
      {"timeoutSeconds a string", field("timeoutSeconds", "10"), "actions[0].timeoutSeconds",
       "not a string"},
      {"env an array", field("env", json::array()), "actions[0].env", "must be an object of NAME"},
      {"env name with a digit first", field("env", {{"1X", "a"}}), "actions[0].env[\"1X\"]",
       "variable names are letters, digits and _"},
      {"env name with =", field("env", {{"A=B", "a"}}), "actions[0].env[\"A=B\"]",
       "variable names"},
      {"env value a number", field("env", {{"LANG", 1}}), "actions[0].env.LANG",
       "must be a string, not a number"},
      {"env value with NUL", field("env", {{"LANG", std::string("C\0", 2)}}), "actions[0].env.LANG",
       "NUL"},
      {"env 101 variables",
       [](json& d) {
         for (int i = 0; i <= 100; ++i) d["actions"][0]["env"]["V" + std::to_string(i)] = "x";
       },
       "actions[0].env", "at most 100 variables, got 101"},
      {"undo a string", field("undo", "rm"), "actions[0].undo",
       "must be a command object {executable, argv, cwd, timeoutSeconds, env}, not a string"},
      {"undo with an undo",
       field("undo", {{"executable", "/usr/bin/rm"}, {"cwd", "/"}, {"undo", json::object()}}),
       "actions[0].undo.undo", "an undo command has no undo of its own"},
      {"undo with a description",
       field("undo", {{"executable", "/usr/bin/rm"}, {"cwd", "/"}, {"description", "x"}}),
       "actions[0].undo.description",
       "unknown field (an undo command has: executable, argv, cwd, timeoutSeconds, env)"},
      {"undo relative cwd", field("undo", {{"executable", "/usr/bin/rm"}, {"cwd", "srv"}}),
       "actions[0].undo.cwd", "must be an absolute path"},
      {"undo through a shell", field("undo", {{"executable", "dash"}, {"cwd", "/"}}),
       "actions[0].undo.executable", "shell"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, LaunchStepsNeedAUsableTargetAndApp) {
  const std::string link = R"({"type": "open_link", "app": "firefox", "url": )";
  const Bad cases[] = {
      {"url missing", step(R"({"type": "open_link", "app": "firefox"})"), "actions[0].url",
       "required"},
      {"url without a scheme", step(link + R"("example.org"})"), "actions[0].url",
       "must be an absolute URL with a scheme"},
      {"url starting with a digit", step(link + R"("1http://example.org"})"), "actions[0].url",
       "with a scheme"},
      {"url with a space", step(link + R"("https://exa mple.org"})"), "actions[0].url",
       "must not contain spaces or control characters"},
      {"url with a tab", step(link + R"("https://example.org/\t"})"), "actions[0].url",
       "control characters"},
      {"https without host", step(link + R"("https:///path"})"), "actions[0].url",
       "an https link needs a host"},
      {"http without //", step(link + R"("http:example.org"})"), "actions[0].url",
       "an http link needs //host"},
      {"http with only a port", step(link + R"("HTTP://:80/"})"), "actions[0].url",
       "an http link needs a host"},
      {"file link", step(link + R"("file:///srv/a.txt"})"), "actions[0].url",
       "opened with an open_file step"},
      {"url too long", step(link + "\"https://example.org/" + std::string(8192, 'a') + "\"}"),
       "actions[0].url", "at most 8192 bytes"},
      {"app missing", step(R"({"type": "open_link", "url": "https://example.org"})"),
       "actions[0].app", "required"},
      {"app with a space", step(R"({"type": "focus", "app": "my app"})"), "actions[0].app",
       "app names are 1–128 letters"},
      {"app a password manager", step(R"({"type": "focus", "app": "org.keepassxc.KeePassXC"})"),
       "actions[0].app", "password managers are never observed or automated"},
      {"focus with a window", step(R"({"type": "focus", "app": "gedit", "window": "a"})"),
       "actions[0].window", "unknown field (a focus step has: type, description, app)"},
      {"file path relative", step(R"({"type": "open_file", "app": "gedit", "path": "a.txt"})"),
       "actions[0].path", "must be an absolute path"},
      {"file path too long",
       step(R"({"type": "open_file", "app": "gedit", "path": "/)" + std::string(4096, 'p') + "\"}"),
       "actions[0].path", "at most 4096 bytes"},
      {"file path missing", step(R"({"type": "open_file", "app": "gedit"})"), "actions[0].path",
       "required"},
      {"chord malformed", step(R"({"type": "press", "app": "gedit", "chord": "ctrl++"})"),
       "actions[0].chord", "key chords are modifiers joined by '+'"},
      {"chord with five modifiers",
       step(R"({"type": "press", "app": "gedit", "chord": "ctrl+alt+shift+super+meta+a"})"),
       "actions[0].chord", "key chords are"},
      {"chord missing", step(R"({"type": "press", "app": "gedit"})"), "actions[0].chord",
       "required"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, DesktopStepsNameElementsBySelector) {
  const std::string click = R"({"type": "click", "app": "gedit", )";
  const Bad cases[] = {
      {"target missing", step(click + R"("window": "Save"})"), "actions[0].target",
       "required: a selector {role, name, id?}"},
      {"target a ref", step(click + R"("target": "@s1a:e3"})"), "actions[0].target",
       "refs name an element of one snapshot and do not outlive it"},
      {"target a number", step(click + R"("target": 3})"), "actions[0].target",
       "must be a selector {role, name, id?}, not a number"},
      {"target with a ref field",
       step(click + R"("target": {"role": "push button", "name": "OK", "ref": "e3"}})"),
       "actions[0].target.ref", "unknown field (a target has: role, name, id, within)"},
      {"within a ref", step(click + R"("target": {"role": "push button", "name": "OK", "within": "@s1a:e2"}})"),
       "actions[0].target.within", "must be a selector {role, name, id?} of an ancestor, not a string"},
      {"within with an unknown role",
       step(click + R"("target": {"role": "push button", "name": "OK", "within": {"role": "box", "name": "R"}}})"),
       "actions[0].target.within.role", "unknown role \"box\""},
      {"within without a name",
       step(click + R"("target": {"role": "push button", "name": "OK", "within": {"role": "panel"}}})"),
       "actions[0].target.within.name", "required"},
      {"within with an empty name and no id",
       step(click + R"("target": {"role": "push button", "name": "OK", "within": {"role": "panel", "name": ""}}})"),
       "actions[0].target.within.name", "must not be empty unless id is given"},
      {"within nested",
       step(click + R"("target": {"role": "push button", "name": "OK", "within": {"role": "panel", "name": "R",
                       "within": {"role": "frame", "name": "W"}}}})"),
       "actions[0].target.within.within", "unknown field (a scope has: role, name, id)"},
      {"within on a wait", step(R"({"type": "wait", "wait": "element", "app": "gedit",
                "target": {"role": "check box", "name": "Bold", "within": {"role": "panel", "name": "R"}}})"),
       "actions[0].target.within", "only steps that act (click, set_value) take a scope"},
      {"role unknown", step(click + R"("target": {"role": "pushbutton", "name": "OK"}})"),
       "actions[0].target.role", "unknown role \"pushbutton\""},
      {"role missing", step(click + R"("target": {"name": "OK"}})"), "actions[0].target.role",
       "required"},
      {"name missing", step(click + R"("target": {"role": "push button"}})"),
       "actions[0].target.name", "required"},
      {"name empty without id", step(click + R"("target": {"role": "push button", "name": ""}})"),
       "actions[0].target.name", "must not be empty unless id is given"},
      {"id empty", step(click + R"("target": {"role": "push button", "name": "OK", "id": ""}})"),
       "actions[0].target.id", "must not be empty"},
      {"window empty",
       step(click + R"("window": "", "target": {"role": "push button", "name": "OK"}})"),
       "actions[0].window", "must not be empty"},
      {"window a number",
       step(click + R"("window": 7, "target": {"role": "push button", "name": "OK"}})"),
       "actions[0].window", "must be a string"},
      {"set_value without value",
       step(R"({"type": "set_value", "app": "gedit", "target": {"role": "text", "name": "A"}})"),
       "actions[0].value", "required"},
      {"set_value on a password field", step(R"({"type": "set_value", "app": "gedit", "value": "x",
                "target": {"role": "password text", "name": "Password"}})"),
       "actions[0].target.role", "password fields are never read or set by automations"},
      {"set_value with a title field",
       step(R"({"type": "set_value", "app": "gedit", "value": "x", "title": "T",
                "target": {"role": "text", "name": "A"}})"),
       "actions[0].title", "unknown field (a set_value step has"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, WaitsUseTheConditionsOfTheWaitMethod) {
  const std::string element = R"({"type": "wait", "wait": "element", "app": "gedit",
                                  "target": {"role": "check box", "name": "Bold"}, )";
  const Bad cases[] = {
      {"wait missing", step(R"({"type": "wait", "app": "gedit"})"), "actions[0].wait", "required"},
      {"wait unknown", step(R"({"type": "wait", "wait": "forever"})"), "actions[0].wait",
       "unknown wait \"forever\"; known: window, closed, text, element"},
      {"window wait without title", step(R"({"type": "wait", "wait": "window", "app": "gedit"})"),
       "actions[0].title", "required"},
      {"window wait with a target",
       step(R"({"type": "wait", "wait": "window", "app": "gedit", "title": "T",
                "target": {"role": "frame", "name": "T"}})"),
       "actions[0].target", "unknown field (a window wait has"},
      {"closed wait with an empty title",
       step(R"({"type": "wait", "wait": "closed", "app": "gedit", "title": ""})"),
       "actions[0].title", "must not be empty"},
      {"text wait with empty text",
       step(R"({"type": "wait", "wait": "text", "app": "gedit", "text": ""})"), "actions[0].text",
       "must not be empty"},
      {"text wait without app", step(R"({"type": "wait", "wait": "text", "text": "Saved"})"),
       "actions[0].app", "required"},
      {"element wait unknown predicate", step(element + R"("predicate": "present"})"),
       "actions[0].predicate", "must be exists, gone, value or state, not \"present\""},
      {"element wait value for exists", step(element + R"("value": "x"})"), "actions[0].value",
       "only for the value and state predicates"},
      {"element wait value for gone", step(element + R"("predicate": "gone", "value": "x"})"),
       "actions[0].value", "only for the value and state predicates"},
      {"element wait state without value", step(element + R"("predicate": "state"})"),
       "actions[0].value", "required"},
      {"element wait unknown state", step(element + R"("predicate": "state", "value": "shiny"})"),
       "actions[0].value", "unknown state \"shiny\""},
      {"element wait value of a password",
       step(R"({"type": "wait", "wait": "element", "app": "gedit", "predicate": "value",
                "value": "x", "target": {"role": "password text", "name": "P"}})"),
       "actions[0].target.role", "password fields"},
      {"wait timeout 0", step(R"({"type": "wait", "wait": "text", "app": "gedit", "text": "a",
                                  "timeoutSeconds": 0})"),
       "actions[0].timeoutSeconds", "from 1 to 86400, got 0"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, ChecksTakeExactlyOneExpectation) {
  const std::string element = R"({"type": "check", "check": "element", "app": "gedit",
                                  "target": {"role": "text", "name": "A"}, )";
  const std::string file = R"({"type": "check", "check": "file", "path": "/srv/a", )";
  const Bad cases[] = {
      {"check missing", step(R"({"type": "check", "app": "gedit"})"), "actions[0].check",
       "required"},
      {"check unknown", step(R"({"type": "check", "check": "pixel"})"), "actions[0].check",
       "unknown check \"pixel\"; known: front, element, file, command"},
      {"front check with a target",
       step(R"({"type": "check", "check": "front", "app": "gedit", "window": "T"})"),
       "actions[0].window",
       "unknown field (a front check has: type, description, check, app, "
       "timeoutSeconds)"},
      {"front check timeout 0",
       step(R"({"type": "check", "check": "front", "app": "gedit", "timeoutSeconds": 0})"),
       "actions[0].timeoutSeconds", "got 0"},
      {"element check with no expectation",
       step(R"({"type": "check", "check": "element", "app": "gedit",
                "target": {"role": "text", "name": "A"}})"),
       "actions[0]", "give one of state, value, text"},
      {"element check with two", step(element + R"("value": "a", "text": "a"})"), "actions[0]",
       "give only one of state, value, text"},
      {"element check unknown state", step(element + R"("state": "shiny"})"), "actions[0].state",
       "unknown state \"shiny\""},
      {"element check empty text", step(element + R"("text": ""})"), "actions[0].text",
       "must not be empty"},
      {"element check value a number", step(element + R"("value": 5})"), "actions[0].value",
       "must be a string"},
      {"element check value of a password",
       step(R"({"type": "check", "check": "element", "app": "gedit", "value": "x",
                "target": {"role": "password text", "name": "P"}})"),
       "actions[0].target.role", "password fields"},
      {"file check relative path",
       step(R"({"type": "check", "check": "file", "path": "a", "equals": ""})"), "actions[0].path",
       "must be an absolute path"},
      {"file check with no expectation",
       step(R"({"type": "check", "check": "file", "path": "/a"})"), "actions[0]",
       "give one of equals, contains, sha256"},
      {"file check with two", step(file + R"("equals": "a", "contains": "a"})"), "actions[0]",
       "give only one of equals, contains, sha256"},
      {"file check short sha256", step(file + R"("sha256": "abc"})"), "actions[0].sha256",
       "must be 64 hexadecimal digits"},
      {"file check sha256 not hex", step(file + "\"sha256\": \"" + std::string(64, 'g') + "\"}"),
       "actions[0].sha256", "64 hexadecimal digits"},
      {"file check empty contains", step(file + R"("contains": ""})"), "actions[0].contains",
       "must not be empty"},
      {"command check through a shell",
       step(R"({"type": "check", "check": "command", "executable": "bash", "cwd": "/"})"),
       "actions[0].executable", "shell"},
      {"command check with an undo",
       step(R"({"type": "check", "check": "command", "executable": "/usr/bin/test", "cwd": "/",
                "undo": {}})"),
       "actions[0].undo", "unknown field (a command check has"},
      {"command check without cwd",
       step(R"({"type": "check", "check": "command", "executable": "/usr/bin/test"})"),
       "actions[0].cwd", "required"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, ReportsEveryProblemAtOnceWithItsPath) {
  json input = base();
  input["name"] = "";
  input["historyLimit"] = 0;
  input["actions"].push_back(json::parse(R"({"type": "open_file", "path": "a.txt"})"));
  input["actions"].push_back(
      json::parse(R"({"type": "command", "executable": "/usr/bin/make", "cwd": "build"})"));
  auto result = validate_definition(input, at_now());
  ASSERT_FALSE(result.ok());
  std::vector<Problem> problems;
  for (const json& p : result.error().details["problems"]) {
    problems.push_back({p["path"], p["message"]});
  }
  const std::vector<Problem> expected = {
      {"name", "must be 1 to 120 characters, got 0"},
      {"historyLimit", "must be from 1 to 1000, got 0"},
      {"actions[1].path", "must be an absolute path (starting with /)"},
      {"actions[1].app", "required"},
      {"actions[2].cwd", "must be an absolute path (starting with /)"},
  };
  EXPECT_EQ(problems, expected) << result.error().details.dump(1);
  EXPECT_EQ(result.error().details["problem_count"], 5);
  EXPECT_EQ(result.error().message,
            "5 problems in the definition; the first: name: must be 1 to 120 characters, got 0");
  EXPECT_EQ(to_string(expected[4]), "actions[2].cwd: must be an absolute path (starting with /)");
  EXPECT_EQ(to_string(Problem{"", "too many"}), "too many");
}

TEST(AutomationValidation, ListsAtMostAHundredProblemsButCountsThemAll) {
  json input = base();
  input["actions"] = json::array();
  for (int i = 0; i < 300; ++i) input["actions"].push_back(json::object());
  auto result = validate_definition(input, at_now());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().details["problems"].size(), kMaxReportedProblems);
  EXPECT_EQ(result.error().details["problem_count"], 301);  // 300 types and the step count
}

TEST(AutomationValidation, NameUniquenessComesFromTheContext) {
  json input = base();
  EXPECT_TRUE(validate_definition(input, at_now()).ok()) << "no store: not checked";

  std::vector<std::string> asked;
  ValidationContext context = at_now();
  context.name_taken = [&](const std::string& name) {
    asked.push_back(name);
    return name == "nightly note";
  };
  auto taken = validate_definition(input, context);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().message,
            "name: \"nightly note\" is already the name of another automation");
  input["name"] = "other";
  EXPECT_TRUE(validate_definition(input, context).ok());
  input["name"] = "";
  EXPECT_FALSE(validate_definition(input, context).ok());
  EXPECT_EQ(asked, (std::vector<std::string>{"nightly note", "other"}))
      << "an invalid name is not looked up";
}

TEST(AutomationValidation, RetryBudgetNeedsNowAndValidNumbers) {
  json input = base();
  input["schedule"] = "*/5 * * * *";
  input["maxRetries"] = 2;
  input["retryIntervalSeconds"] = 150;  // 300 s is not shorter than the 300 s gap
  auto refused = validate_definition(input, at_now());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().details["problems"][0]["path"], "maxRetries");
  EXPECT_THAT(refused.error().message, HasSubstr("retryIntervalSeconds at most 149"));

  EXPECT_TRUE(validate_definition(input, ValidationContext{}).ok())
      << "reading back a stored definition skips the rule";
  input["retryIntervalSeconds"] = 149;
  EXPECT_TRUE(validate_definition(input, at_now()).ok());
  input["schedule"] = nullptr;
  input["retryIntervalSeconds"] = 86400;
  input["maxRetries"] = 5;
  EXPECT_TRUE(validate_definition(input, at_now()).ok()) << "manual runs have no gap to fit";

  input["schedule"] = "* * * * *";
  input["retryIntervalSeconds"] = 0;
  auto one = validate_definition(input, at_now());
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.error().details["problem_count"], 1) << "no budget problem from a bad number";
  input["retryIntervalSeconds"] = 10;
  input["timezone"] = "Nowhere/City";
  auto zone = validate_definition(input, at_now());
  ASSERT_FALSE(zone.ok());
  EXPECT_EQ(zone.error().details["problem_count"], 1) << "no budget problem from a bad zone";
}

TEST(AutomationValidation, MinimalDefinitionGetsEveryDefault) {
  auto result = validate_definition(base(), at_now());
  ASSERT_TRUE(result.ok()) << result.error().details.dump(1);
  const json expected = json::parse(R"({
    "name": "nightly note", "enabled": true, "schedule": null, "timezone": "UTC",
    "maxRetries": 0, "retryIntervalSeconds": 10, "historyLimit": 30,
    "preconditions": [], "postActions": [],
    "actions": [{"type": "command", "executable": "/usr/bin/touch", "argv": ["/srv/note"],
                 "cwd": "/", "timeoutSeconds": 60}]})");
  EXPECT_EQ(to_json(*result), expected);
}

// Every step type with every optional field: validating the canonical form gives it back.
const char* const kEveryStep = R"({
  "name": "every step", "enabled": false, "schedule": "30 2 * * *",
  "timezone": "Europe/Berlin", "maxRetries": 2, "retryIntervalSeconds": 600,
  "historyLimit": 1000,
  "preconditions": [
    {"type": "check", "check": "front", "app": "gedit", "timeoutSeconds": 10},
    {"type": "wait", "wait": "window", "app": "gedit", "title": "Notes", "timeoutSeconds": 5},
    {"type": "focus", "app": "gedit", "description": "bring gedit forward"}
  ],
  "actions": [
    {"type": "command", "executable": "cp", "argv": ["a", "b"], "cwd": "/srv",
     "timeoutSeconds": 5, "env": {"LANG": "C.UTF-8", "_X1": ""},
     "undo": {"executable": "/usr/bin/rm", "argv": ["b"], "cwd": "/srv", "timeoutSeconds": 60,
              "env": {"LC_ALL": "C"}}},
    {"type": "open_link", "url": "https://example.org/a?b=c#d", "app": "firefox"},
    {"type": "open_file", "path": "/srv/a b.txt", "app": "gedit"},
    {"type": "press", "chord": "ctrl+s", "app": "gedit"},
    {"type": "click", "app": "gedit", "window": "Notes",
     "target": {"role": "push button", "name": "", "id": "save"}},
    {"type": "click", "app": "gedit", "target": {"role": "password text", "name": "P"}},
    {"type": "click", "app": "soffice",
     "target": {"role": "menu item", "name": "Save", "within": {"role": "root pane", "name": "Doc"}}},
    {"type": "set_value", "app": "gedit", "target": {"role": "text", "name": "Title"},
     "value": ""},
    {"type": "set_value", "app": "gedit", "value": "x",
     "target": {"role": "text", "name": "Title", "within": {"role": "panel", "name": "", "id": "right"}}},
    {"type": "wait", "wait": "closed", "app": "gedit", "timeoutSeconds": 30},
    {"type": "wait", "wait": "closed", "app": "gedit", "title": "Save", "timeoutSeconds": 30},
    {"type": "wait", "wait": "text", "app": "gedit", "text": "Saved", "timeoutSeconds": 86400},
    {"type": "wait", "wait": "element", "app": "gedit", "window": "Notes",
     "target": {"role": "check box", "name": "Bold"}, "predicate": "exists", "timeoutSeconds": 1},
    {"type": "wait", "wait": "element", "app": "gedit",
     "target": {"role": "check box", "name": "Bold"}, "predicate": "state", "value": "checked",
     "timeoutSeconds": 30},
    {"type": "wait", "wait": "element", "app": "gedit",
     "target": {"role": "text", "name": "Title"}, "predicate": "value", "value": "",
     "timeoutSeconds": 30},
    {"type": "pi", "prompt": "Summarise the log.\nDo not edit files.", "cwd": "/srv",
     "timeoutSeconds": 900}
  ],
  "postActions": [
    {"type": "check", "check": "element", "app": "gedit",
     "target": {"role": "check box", "name": "Bold"}, "state": "checked", "timeoutSeconds": 10},
    {"type": "check", "check": "element", "app": "gedit", "window": "Notes",
     "target": {"role": "text", "name": "Title"}, "value": "", "timeoutSeconds": 10},
    {"type": "check", "check": "element", "app": "gedit",
     "target": {"role": "label", "name": "Status"}, "text": "Saved", "timeoutSeconds": 3},
    {"type": "check", "check": "file", "path": "/srv/b", "equals": "", "timeoutSeconds": 10},
    {"type": "check", "check": "file", "path": "/srv/b", "contains": "x", "timeoutSeconds": 10},
    {"type": "check", "check": "file", "path": "/srv/b",
     "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
     "timeoutSeconds": 10},
    {"type": "check", "check": "command", "executable": "/usr/bin/test", "argv": ["-s", "/srv/b"],
     "cwd": "/", "timeoutSeconds": 7, "description": "b is not empty"}
  ]})";

TEST(AutomationValidation, CanonicalFormRoundTripsForEveryStepType) {
  const json canonical = json::parse(kEveryStep);
  auto result = validate_definition(canonical, at_now());
  ASSERT_TRUE(result.ok()) << result.error().details.dump(1);
  EXPECT_EQ(to_json(*result), canonical) << to_json(*result).dump(1);
  auto again = validate_definition(to_json(*result), at_now());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *result);

  // Spot checks that the model holds what the JSON said.
  const Definition& d = *result;
  EXPECT_FALSE(d.enabled);
  EXPECT_EQ(d.schedule, "30 2 * * *");
  EXPECT_EQ(d.step_count(), 3u + 16u + 7u);
  const auto& pi = std::get<PiStep>(d.actions[15].body);
  EXPECT_EQ(pi.prompt, "Summarise the log.\nDo not edit files.");
  EXPECT_EQ(pi.cwd, "/srv");
  EXPECT_EQ(pi.timeout_seconds, 900);
  const auto& scoped = std::get<ClickStep>(d.actions[6].body);
  ASSERT_TRUE(scoped.target.within.has_value());
  EXPECT_EQ(scoped.target.within->role, "root pane");
  EXPECT_EQ(scoped.target.within->name, "Doc");
  EXPECT_FALSE(std::get<ClickStep>(d.actions[4].body).target.within.has_value());
  const auto& command = std::get<CommandStep>(d.actions[0].body);
  EXPECT_EQ(command.command.argv, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(command.undo.has_value());
  EXPECT_EQ(command.undo->env.at("LC_ALL"), "C");
  const auto& check = std::get<CheckStep>(d.post_actions[6].body);
  EXPECT_EQ(check.timeout_seconds, 7) << "a command check's timeout is its command's";
  EXPECT_EQ(d.preconditions[2].description, "bring gedit forward");
}

// The product seed's spelling of a command line (command + args) loads as ours does, in a
// command step, its undo and a command check, and is stored in ours with nothing lost.
TEST(AutomationValidation, TheSeedsSpellingOfACommandLineLoadsAsOurs) {
  const json seed = json::parse(R"({"name": "seed", "preconditions": [
      {"type": "command", "command": "git", "args": ["rev-parse", "--is-inside-work-tree"], "cwd": "/srv/p"}],
    "actions": [
      {"type": "command", "command": "/usr/bin/touch", "args": ["/srv/note"], "cwd": "/",
       "undo": {"command": "rm", "args": ["--", "/srv/note"], "cwd": "/"}}],
    "postActions": [
      {"type": "check", "check": "command", "command": "/usr/bin/test", "args": ["-e", "/srv/note"], "cwd": "/"}]})");
  const json ours = json::parse(R"({"name": "seed", "preconditions": [
      {"type": "check", "check": "command", "executable": "git", "argv": ["rev-parse", "--is-inside-work-tree"],
       "cwd": "/srv/p"}],
    "actions": [
      {"type": "command", "executable": "/usr/bin/touch", "argv": ["/srv/note"], "cwd": "/",
       "undo": {"executable": "rm", "argv": ["--", "/srv/note"], "cwd": "/"}}],
    "postActions": [
      {"type": "check", "check": "command", "executable": "/usr/bin/test", "argv": ["-e", "/srv/note"], "cwd": "/"}]})");
  auto from_seed = validate_definition(seed, at_now());
  auto from_ours = validate_definition(ours, at_now());
  ASSERT_TRUE(from_seed.ok()) << from_seed.error().details.dump(1);
  ASSERT_TRUE(from_ours.ok()) << from_ours.error().details.dump(1);
  EXPECT_EQ(*from_seed, *from_ours);
  EXPECT_EQ(to_json(*from_seed), to_json(*from_ours)) << "stored and shown in one spelling";
  EXPECT_EQ(to_json(*from_seed).dump().find("\"args\""), std::string::npos);

  const Bad cases[] = {
      {"both executable and command", field("command", "/usr/bin/touch"), "actions[0].command",
       "give executable or command, not both"},
      {"both argv and args", field("args", json::array({"x"})), "actions[0].args", "give argv or args, not both"},
      {"the seed's spelling keeps our rules", both(step(R"({"type": "command", "command": "sh", "args": [],
                                                             "cwd": "/"})"), [](json&) {}),
       "actions[0].executable", "is a shell"},
      {"command on a step that is not a command line", step(R"({"type": "open_link", "url": "https://e.org/",
                                                                 "app": "firefox", "command": "x"})"),
       "actions[0].command", "unknown field"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
}

TEST(AutomationValidation, AcceptedEdgesAndTheirCanonicalSpelling) {
  struct Good {
    std::string_view what;
    Change change;
    std::function<void(const json& canonical)> expect;
  };
  const Good cases[] = {
      {"a name of 120 two-byte characters",
       set("name",
           [] {
             std::string name;
             for (int i = 0; i < 120; ++i) name += "\xC3\xA9";
             return name;
           }()),
       [](const json& c) { EXPECT_EQ(c["name"].get<std::string>().size(), 240u); }},
      {"schedule null is manual", set("schedule", nullptr),
       [](const json& c) { EXPECT_TRUE(c["schedule"].is_null()); }},
      {"an alias and a zone", both(set("schedule", "@daily"), set("timezone", "Asia/Jakarta")),
       [](const json& c) { EXPECT_EQ(c["schedule"], "@daily"); }},
      {"upper-case sha256 is stored lower-case",
       step(R"({"type": "check", "check": "file", "path": "/a",
                "sha256": "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"})"),
       [](const json& c) {
         EXPECT_EQ(c["actions"][0]["sha256"],
                   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
         EXPECT_EQ(c["actions"][0]["timeoutSeconds"], kDefaultCheckTimeoutSeconds);
       }},
      {"a wait gets the default timeout",
       step(R"({"type": "wait", "wait": "element", "app": "gedit",
                "target": {"role": "check box", "name": "Bold"}})"),
       [](const json& c) {
         EXPECT_EQ(c["actions"][0]["predicate"], "exists");
         EXPECT_EQ(c["actions"][0]["timeoutSeconds"], kDefaultWaitTimeoutSeconds);
       }},
      {"an empty env is left out", field("env", json::object()),
       [](const json& c) { EXPECT_FALSE(c["actions"][0].contains("env")); }},
      {"100 arguments of 16 KiB",
       field("argv", std::vector<std::string>(100, std::string(16384, 'a'))),
       [](const json& c) { EXPECT_EQ(c["actions"][0]["argv"].size(), 100u); }},
      {"bounds of the numbers",
       both(both(set("maxRetries", 5), set("retryIntervalSeconds", 86400)),
            both(set("historyLimit", 1), field("timeoutSeconds", 86400))),
       [](const json& c) { EXPECT_EQ(c["historyLimit"], 1); }},
      {"50 steps",
       [](json& d) {
         for (int i = 0; i < 49; ++i) d["postActions"].push_back(d["actions"][0]);
       },
       [](const json& c) { EXPECT_EQ(c["postActions"].size(), 49u); }},
      {"a url with a user and port", step(R"({"type": "open_link", "app": "firefox",
                                            "url": "https://me@example.org:8443/x"})"),
       [](const json& c) { EXPECT_EQ(c["actions"][0]["url"], "https://me@example.org:8443/x"); }},
      {"a non-web scheme", step(R"({"type": "open_link", "app": "thunderbird",
                                  "url": "mailto:someone@example.org"})"),
       [](const json& c) { EXPECT_EQ(c["actions"][0]["app"], "thunderbird"); }},
      {"a bare program name", field("executable", "rsync"),
       [](const json& c) { EXPECT_EQ(c["actions"][0]["executable"], "rsync"); }},
      {"a script by its own path", field("executable", "/srv/bin/report.py"),
       [](const json& c) { EXPECT_EQ(c["actions"][0]["executable"], "/srv/bin/report.py"); }},
  };
  for (const Good& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    json input = base();
    c.change(input);
    auto result = validate_definition(input, at_now());
    ASSERT_TRUE(result.ok()) << result.error().details.dump(1);
    c.expect(to_json(*result));
  }
}

TEST(AutomationValidation, BuiltDocumentsWithBadUtf8AreRefusedNotThrown) {
  json input = base();
  input["actions"][0]["argv"] = json::array({std::string("\xFF", 1)});
  input["actions"][0]["env"] = {{"A", std::string("\xED\xA0\x80", 3)}};  // a surrogate
  auto result = validate_definition(input, at_now());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().details["problem_count"], 2);
  EXPECT_EQ(result.error().details["problems"][0]["message"], "must be valid UTF-8");
}

TEST(AutomationValidation, WaitPredicatesAreSpelledAsTheWaitMethodSpellsThem) {
  // One vocabulary: an element wait's predicate is a11y's, read and written by its names.
  for (auto predicate : {a11y::Predicate::kExists, a11y::Predicate::kGone, a11y::Predicate::kValue,
                         a11y::Predicate::kState}) {
    const std::string name(a11y::predicate_name(predicate));
    auto parsed = a11y::parse_predicate(name);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(*parsed, predicate);
  }
  EXPECT_FALSE(a11y::parse_predicate("present").ok());
}

TEST(AutomationValidation, StepTypeNamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(StepType::kPi); ++i) {
    const auto type = static_cast<StepType>(i);
    EXPECT_EQ(step_type_from_string(to_string(type)), type);
  }
  EXPECT_FALSE(step_type_from_string("Command").has_value());
  EXPECT_EQ(step_path(Phase::kPostActions, 3), "postActions[3]");
}

// data/examples/*.json: each must pass validation as shipped.
TEST(AutomationExamples, EveryExampleIsValid) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(COMPANYOS_EXAMPLES_DIR)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  EXPECT_GE(files.size(), 3u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const json input = json::parse(text.str(), nullptr, false);
    ASSERT_FALSE(input.is_discarded()) << "not JSON";
    auto result = validate_definition(input, at_now());
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().details.dump(1));
  }
}

// The product seed's own example definition, as it is written there (its spelling, its
// command precondition, its pi step), loads; what is stored is our spelling of it.
TEST(AutomationExamples, TheSeedsExampleValidatesAsWritten) {
  std::ifstream in(COMPANYOS_SEED_EXAMPLE);
  std::stringstream text;
  text << in.rdbuf();
  json seed = json::parse(text.str(), nullptr, false);
  ASSERT_FALSE(seed.is_discarded());
  auto result = validate_definition(seed, at_now());
  ASSERT_TRUE(result.ok()) << result.error().details.dump(1);
  const json stored = to_json(*result);
  EXPECT_EQ(stored["preconditions"][0]["check"], "command");
  EXPECT_EQ(stored["preconditions"][0]["executable"], "git");
  EXPECT_EQ(stored["actions"][0]["argv"], json::array({"test"}));
  EXPECT_EQ(stored["actions"][1], (json{{"type", "pi"},
                                        {"prompt", seed["actions"][1]["prompt"]},
                                        {"cwd", "/absolute/project"},
                                        {"timeoutSeconds", 900}}));
  EXPECT_EQ(stored["timezone"], "Asia/Jakarta");
  auto again = validate_definition(stored, at_now());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *result);
}

TEST(AutomationValidation, PiStepsNeedAPromptAndAnAbsoluteCwd) {
  const std::string good = R"({"type": "pi", "prompt": "Summarise", "cwd": "/srv")";
  const Bad cases[] = {
      {"prompt missing", step(R"({"type": "pi", "cwd": "/srv"})"), "actions[0].prompt", "required"},
      {"prompt blank", both(step(good + "}"), field("prompt", " \n\t")), "actions[0].prompt",
       "must say what pi is to do"},
      {"prompt a number", step(R"({"type": "pi", "prompt": 3, "cwd": "/srv"})"), "actions[0].prompt",
       "must be a string"},
      {"prompt too long", both(step(good + "}"), field("prompt", std::string(kMaxPromptBytes + 1, 'p'))),
       "actions[0].prompt", "at most"},
      {"cwd missing", step(R"({"type": "pi", "prompt": "Summarise"})"), "actions[0].cwd", "required"},
      {"cwd relative", both(step(good + "}"), field("cwd", "project")), "actions[0].cwd", "absolute"},
      {"timeout zero", both(step(good + "}"), field("timeoutSeconds", 0)), "actions[0].timeoutSeconds", ""},
      {"timeout too long", both(step(good + "}"), field("timeoutSeconds", kMaxTimeoutSeconds + 1)),
       "actions[0].timeoutSeconds", ""},
      {"unknown field", both(step(good + "}"), field("model", "x")), "actions[0].model",
       "unknown field (a pi step has: type, description, prompt, cwd, timeoutSeconds)"},
      {"pi in a precondition",
       set("preconditions", json::array({json::parse(good + "}")})), "preconditions[0]",
       "pi belongs in actions"},
  };
  for (const Bad& c : cases) expect_single_problem(c);
  json input = base();
  step(good + "}")(input);
  auto defaults = validate_definition(input, at_now());
  ASSERT_TRUE(defaults.ok()) << defaults.error().details.dump(1);
  EXPECT_EQ(std::get<PiStep>(defaults->actions[0].body).timeout_seconds, kDefaultPiTimeoutSeconds);
}

}  // namespace
}  // namespace companyos::automation
