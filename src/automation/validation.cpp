#include "automation/validation.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "a11y/vocabulary.h"
#include "automation/dsl/field_rules.h"
#include "automation/dsl/seed_spelling.h"
#include "automation/dsl/text.h"
#include "automation/effects.h"
#include "core/object_reader.h"
#include "core/problems.h"
#include "core/text.h"
#include "launch/bridge_arguments.h"
#include "schedule/cron_expression.h"
#include "schedule/retry_budget.h"
#include "schedule/schedule.h"
#include "schedule/time_zone.h"

namespace companyos::automation {
namespace {

using json = nlohmann::json;
using namespace dsl;

constexpr std::string_view kDefinitionFields[] = {
    "name",         "enabled",       "schedule", "timezone",   "maxRetries", "retryIntervalSeconds",
    "historyLimit", "preconditions", "actions",  "postActions"};
constexpr std::string_view kCommandLineFields[] = {"executable", "argv", "cwd", "timeoutSeconds",
                                                   "env"};
constexpr std::string_view kTargetFields[] = {"role", "name", "id", "within"};
constexpr std::string_view kScopeFields[] = {"role", "name", "id"};
// In the order of ElementExpectation and FileExpectation.
constexpr std::string_view kElementExpectationFields[] = {"state", "value", "text"};
constexpr std::string_view kFileExpectationFields[] = {"equals", "contains", "sha256"};

constexpr std::string_view kCommandFields[] = {"type", "description",    "executable", "argv",
                                               "cwd",  "timeoutSeconds", "env",        "undo"};
constexpr std::string_view kOpenLinkFields[] = {"type", "description", "url", "app"};
constexpr std::string_view kOpenFileFields[] = {"type", "description", "path", "app"};
constexpr std::string_view kFocusFields[] = {"type", "description", "app"};
constexpr std::string_view kPressFields[] = {"type", "description", "chord", "app"};
constexpr std::string_view kClickFields[] = {"type", "description", "app", "window", "target"};
constexpr std::string_view kSetValueFields[] = {"type",   "description", "app",
                                                "window", "target",      "value"};
constexpr std::string_view kWaitWindowFields[] = {"type", "description", "wait",
                                                  "app",  "title",       "timeoutSeconds"};
constexpr std::string_view kWaitTextFields[] = {"type", "description", "wait",
                                                "app",  "text",        "timeoutSeconds"};
constexpr std::string_view kWaitElementFields[] = {"type",      "description", "wait",
                                                   "app",       "window",      "target",
                                                   "predicate", "value",       "timeoutSeconds"};
constexpr std::string_view kCheckFrontFields[] = {"type", "description", "check", "app",
                                                  "timeoutSeconds"};
constexpr std::string_view kCheckElementFields[] = {"type",   "description",   "check", "app",
                                                    "window", "target",        "state", "value",
                                                    "text",   "timeoutSeconds"};
constexpr std::string_view kCheckFileFields[] = {
    "type", "description", "check", "path", "equals", "contains", "sha256", "timeoutSeconds"};
constexpr std::string_view kCheckCommandFields[] = {
    "type", "description", "check", "executable", "argv", "cwd", "timeoutSeconds", "env"};
constexpr std::string_view kPiFields[] = {"type", "description", "prompt", "cwd", "timeoutSeconds"};

class DefinitionValidator {
 public:
  explicit DefinitionValidator(const ValidationContext& context) : context_(context) {}

  Result<Definition> run(const json& given) {
    Definition definition;
    const json input = in_our_spelling(given, problems_);
    if (!input.is_object()) {
      problems_.add("", "a definition must be a JSON object, not " + json_type_name(input));
      return failure();
    }
    ObjectReader reader(input, "", problems_);
    reader.allow_only(kDefinitionFields, "a definition");
    read_name(reader, definition);
    definition.enabled = reader.boolean("enabled", true);
    read_schedule(reader, definition);
    const auto max_retries = reader.integer(
        "maxRetries", 0, static_cast<int>(schedule::kMaxRetriesLimit), kDefaultMaxRetries);
    const auto retry_interval = reader.integer(
        "retryIntervalSeconds", 1, static_cast<int>(schedule::kRetryIntervalLimitSeconds),
        kDefaultRetryIntervalSeconds);
    definition.max_retries = max_retries.value_or(kDefaultMaxRetries);
    definition.retry_interval_seconds = retry_interval.value_or(kDefaultRetryIntervalSeconds);
    definition.history_limit =
        reader.integer("historyLimit", 1, kMaxHistoryLimit, kDefaultHistoryLimit)
            .value_or(kDefaultHistoryLimit);
    if (max_retries && retry_interval) check_retry_budget(definition);

    std::size_t steps_given = 0;
    definition.preconditions = read_steps(reader, Phase::kPreconditions, steps_given);
    definition.actions = read_steps(reader, Phase::kActions, steps_given);
    definition.post_actions = read_steps(reader, Phase::kPostActions, steps_given);
    if (steps_given > kMaxSteps) {
      problems_.add("", std::to_string(steps_given) + " steps in all; at most " +
                            std::to_string(kMaxSteps) +
                            " (preconditions, actions and postActions together)");
    }
    if (problems_.count() > 0) return failure();
    return definition;
  }

 private:
  Error failure() const {
    json list = json::array();
    for (const Problem& problem : problems_.list()) list.push_back(to_json(problem));
    std::string message = to_string(problems_.list().front());
    if (problems_.count() > 1) {
      message =
          std::to_string(problems_.count()) + " problems in the definition; the first: " + message;
    }
    return make_error(ErrorCode::kInvalidArgs, std::move(message),
                      {{"problems", std::move(list)}, {"problem_count", problems_.count()}},
                      "fix each problem listed in details.problems (docs/automations.md has the "
                      "rules)");
  }

  void read_name(const ObjectReader& reader, Definition& definition) {
    auto name = reader.required_string("name");
    if (!name) return;
    const std::string path = reader.path_of("name");
    const std::size_t characters = character_count(*name);
    if (characters == 0 || characters > kMaxNameChars) {
      problems_.add(path, "must be 1 to " + std::to_string(kMaxNameChars) + " characters, got " +
                              std::to_string(characters));
    } else if (has_control_characters(*name)) {
      problems_.add(path, "must not contain control characters");
    } else if (is_blank(*name)) {
      problems_.add(path, "must not be only spaces");
    } else if (context_.name_taken && context_.name_taken(*name)) {
      problems_.add(path, in_quotes(*name) + " is already the name of another automation");
    }
    definition.name = std::move(*name);
  }

  void read_schedule(const ObjectReader& reader, Definition& definition) {
    schedule_ok_ = true;
    if (const json* value = reader.find("schedule"); value != nullptr && !value->is_null()) {
      if (auto text = reader.optional_string("schedule")) {
        auto cron = schedule::parse_cron(*text);
        if (!cron) {
          problems_.add(reader.path_of("schedule"),
                        without_prefix(cron.error().message, "schedule: "));
          schedule_ok_ = false;
        }
        definition.schedule = std::move(*text);
      } else {
        schedule_ok_ = false;
      }
    }
    if (reader.has("timezone")) {
      if (auto zone = reader.optional_string("timezone")) {
        if (auto found = schedule::find_time_zone(*zone); !found) {
          problems_.add(reader.path_of("timezone"),
                        without_prefix(found.error().message, "timezone "));
          schedule_ok_ = false;
        }
        definition.timezone = std::move(*zone);
      } else {
        schedule_ok_ = false;
      }
    }
  }

  // maxRetries × retryIntervalSeconds must fit between two triggers (docs/scheduling.md).
  void check_retry_budget(const Definition& definition) {
    if (!context_.now || !definition.schedule || !schedule_ok_) return;
    auto bound = schedule::Schedule::create(*definition.schedule, definition.timezone);
    if (!bound) return;  // reported above
    auto budget = schedule::validate_retry_budget(*bound, definition.max_retries,
                                                  definition.retry_interval_seconds, *context_.now);
    if (!budget) {
      const Error& error = budget.error();
      problems_.add("maxRetries",
                    error.message + (error.suggestion.empty() ? "" : "; " + error.suggestion));
    }
  }

  std::vector<Step> read_steps(const ObjectReader& reader, Phase phase, std::size_t& steps_given) {
    std::vector<Step> steps;
    const std::string key(to_string(phase));
    const json* list = reader.find(key);
    if (list == nullptr) {
      if (phase == Phase::kActions) problems_.add(key, "required (at least one step)");
      return steps;
    }
    if (!list->is_array()) {
      problems_.add(key, "must be an array of steps, not " + json_type_name(*list));
      return steps;
    }
    if (phase == Phase::kActions && list->empty()) {
      problems_.add(key, "must hold at least one step");
    }
    steps_given += list->size();
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = index_path(key, i);
      auto step = read_step((*list)[i], path);
      if (!step) continue;
      if (phase == Phase::kPreconditions && has_effect(*step)) {
        problems_.add(path, "a precondition must have no effect: " +
                                std::string(to_string(step_type(*step))) +
                                " belongs in actions (preconditions take check, wait and focus)");
      }
      steps.push_back(std::move(*step));
    }
    return steps;
  }

  std::optional<Step> read_step(const json& value, const std::string& path) {
    if (!value.is_object()) {
      problems_.add(path, "a step must be a JSON object, not " + json_type_name(value));
      return std::nullopt;
    }
    ObjectReader reader(value, path, problems_);
    auto type_name = reader.required_string("type");
    if (!type_name) return std::nullopt;
    const auto type = step_type_from_string(*type_name);
    if (!type) {
      problems_.add(reader.path_of("type"),
                    "unknown step type " + in_quotes(*type_name) +
                        "; known: command, open_link, open_file, focus, press, click, "
                        "set_value, wait, check, pi");
      return std::nullopt;
    }
    std::optional<StepBody> body = read_body(*type, reader);
    Step step;
    if (auto description = reader.optional_string("description")) {
      const std::size_t characters = character_count(*description);
      if (characters == 0 || characters > kMaxDescriptionChars) {
        problems_.add(reader.path_of("description"),
                      "must be 1 to " + std::to_string(kMaxDescriptionChars) + " characters, got " +
                          std::to_string(characters));
      }
      step.description = std::move(*description);
    }
    if (!body) return std::nullopt;
    step.body = std::move(*body);
    return step;
  }

  std::optional<StepBody> read_body(StepType type, const ObjectReader& reader) {
    switch (type) {
      case StepType::kCommand: {
        reader.allow_only(kCommandFields, "a command step");
        CommandStep step;
        step.command = read_command_line(reader);
        if (const json* undo = reader.find("undo")) {
          step.undo = read_undo(*undo, reader.path_of("undo"));
        }
        return step;
      }
      case StepType::kOpenLink: {
        reader.allow_only(kOpenLinkFields, "an open_link step");
        OpenLinkStep step;
        if (auto url = reader.required_string("url", kMaxUrlBytes)) {
          problems_.check(reader.path_of("url"), url_problem(*url));
          step.url = std::move(*url);
        }
        step.app = read_app(reader);
        return step;
      }
      case StepType::kOpenFile: {
        reader.allow_only(kOpenFileFields, "an open_file step");
        return OpenFileStep{read_path(reader, "path"), read_app(reader)};
      }
      case StepType::kFocus:
        reader.allow_only(kFocusFields, "a focus step");
        return FocusStep{read_app(reader)};
      case StepType::kPress: {
        reader.allow_only(kPressFields, "a press step");
        PressStep step;
        if (auto chord = reader.required_string("chord")) {
          if (auto status = launch::check_key_chord(*chord); !status) {
            problems_.add(reader.path_of("chord"), status.error().message);
          }
          step.chord = std::move(*chord);
        }
        step.app = read_app(reader);
        return step;
      }
      case StepType::kClick: {
        reader.allow_only(kClickFields, "a click step");
        ClickStep step;
        step.app = read_app(reader);
        step.window = read_window(reader);
        step.target = read_target(reader, false, true);
        return step;
      }
      case StepType::kSetValue: {
        reader.allow_only(kSetValueFields, "a set_value step");
        SetValueStep step;
        step.app = read_app(reader);
        step.window = read_window(reader);
        step.target = read_target(reader, true, true);
        step.value = reader.required_string("value").value_or("");
        return step;
      }
      case StepType::kWait:
        return read_wait(reader);
      case StepType::kPi:
        return read_pi(reader);
      case StepType::kCheck:
        break;
    }
    return read_check(reader);
  }

  PiStep read_pi(const ObjectReader& reader) {
    reader.allow_only(kPiFields, "a pi step");
    PiStep step;
    if (auto prompt = reader.required_string("prompt", kMaxPromptBytes)) {
      if (prompt->find_first_not_of(" \t\r\n") == std::string::npos) {
        problems_.add(reader.path_of("prompt"), "must say what pi is to do, not be blank");
      }
      step.prompt = std::move(*prompt);
    }
    step.cwd = read_path(reader, "cwd");
    step.timeout_seconds = reader.integer("timeoutSeconds", 1, kMaxTimeoutSeconds, kDefaultPiTimeoutSeconds)
                               .value_or(kDefaultPiTimeoutSeconds);
    return step;
  }

  std::optional<StepBody> read_wait(const ObjectReader& reader) {
    auto kind = reader.required_string("wait");
    if (!kind) return std::nullopt;
    WaitStep step;
    if (*kind == "window" || *kind == "closed") {
      reader.allow_only(kWaitWindowFields, "a " + *kind + " wait");
      std::string app = read_app(reader);
      if (*kind == "window") {
        auto title = reader.required_string("title");
        if (title) problems_.check(reader.path_of("title"), title_problem(*title));
        step.condition = WindowAppearsWait{std::move(app), title.value_or("")};
      } else {
        step.condition = WindowClosedWait{std::move(app), read_window_title(reader, "title")};
      }
    } else if (*kind == "text") {
      reader.allow_only(kWaitTextFields, "a text wait");
      std::string app = read_app(reader);
      auto text = reader.required_string("text");
      if (text && text->empty()) problems_.add(reader.path_of("text"), "must not be empty");
      step.condition = TextAppearsWait{std::move(app), text.value_or("")};
    } else if (*kind == "element") {
      reader.allow_only(kWaitElementFields, "an element wait");
      step.condition = read_element_wait(reader);
    } else {
      problems_.add(reader.path_of("wait"),
                    "unknown wait " + in_quotes(*kind) + "; known: window, closed, text, element");
      return std::nullopt;
    }
    step.timeout_seconds =
        reader.integer("timeoutSeconds", 1, kMaxTimeoutSeconds, kDefaultWaitTimeoutSeconds)
            .value_or(kDefaultWaitTimeoutSeconds);
    return step;
  }

  ElementWait read_element_wait(const ObjectReader& reader) {
    ElementWait wait;
    wait.app = read_app(reader);
    wait.window = read_window(reader);
    if (auto predicate = reader.optional_string("predicate")) {
      if (auto parsed = a11y::parse_predicate(*predicate)) {
        wait.predicate = *parsed;
      } else {
        problems_.add(reader.path_of("predicate"),
                      "must be exists, gone, value or state, not " + in_quotes(*predicate));
      }
    }
    const bool takes_value =
        wait.predicate == a11y::Predicate::kValue || wait.predicate == a11y::Predicate::kState;
    wait.target = read_target(reader, wait.predicate == a11y::Predicate::kValue);
    if (takes_value) {
      wait.value = reader.required_string("value");
      if (wait.value && wait.predicate == a11y::Predicate::kState) {
        problems_.check(reader.path_of("value"), state_problem(*wait.value));
      }
    } else if (reader.has("value")) {
      problems_.add(reader.path_of("value"), "only for the value and state predicates");
    }
    return wait;
  }

  std::optional<StepBody> read_check(const ObjectReader& reader) {
    auto kind = reader.required_string("check");
    if (!kind) return std::nullopt;
    CheckStep step;
    if (*kind == "front") {
      reader.allow_only(kCheckFrontFields, "a front check");
      step.condition = FrontCheck{read_app(reader)};
    } else if (*kind == "element") {
      reader.allow_only(kCheckElementFields, "an element check");
      step.condition = read_element_check(reader);
    } else if (*kind == "file") {
      reader.allow_only(kCheckFileFields, "a file check");
      step.condition = read_file_check(reader);
    } else if (*kind == "command") {
      reader.allow_only(kCheckCommandFields, "a command check");
      CommandCheck check{read_command_line(reader)};
      step.timeout_seconds = check.command.timeout_seconds;
      step.condition = std::move(check);
      return step;
    } else {
      problems_.add(reader.path_of("check"),
                    "unknown check " + in_quotes(*kind) + "; known: front, element, file, command");
      return std::nullopt;
    }
    step.timeout_seconds =
        reader.integer("timeoutSeconds", 1, kMaxTimeoutSeconds, kDefaultCheckTimeoutSeconds)
            .value_or(kDefaultCheckTimeoutSeconds);
    return step;
  }

  // Exactly one of `keys` is present: its index, or nullopt with a problem at the step.
  std::optional<std::size_t> one_of(const ObjectReader& reader, Fields keys) {
    std::vector<std::size_t> present;
    std::size_t index = 0;
    for (std::string_view key : keys) {
      if (reader.has(key)) present.push_back(index);
      ++index;
    }
    if (present.size() == 1) return present.front();
    problems_.add(reader.path(), present.empty() ? "give one of " + joined(keys)
                                                 : "give only one of " + joined(keys));
    return std::nullopt;
  }

  ElementCheck read_element_check(const ObjectReader& reader) {
    ElementCheck check;
    check.app = read_app(reader);
    check.window = read_window(reader);
    const auto which = one_of(reader, kElementExpectationFields);
    const ElementExpectation kinds[] = {ElementExpectation::kState, ElementExpectation::kValue,
                                        ElementExpectation::kText};
    if (which) check.expectation = kinds[*which];
    check.target = read_target(reader, which && check.expectation != ElementExpectation::kState);
    if (!which) return check;
    const std::string key(to_string(check.expectation));
    auto expected = reader.optional_string(key);
    if (expected && check.expectation == ElementExpectation::kState) {
      problems_.check(reader.path_of(key), state_problem(*expected));
    } else if (expected && check.expectation == ElementExpectation::kText && expected->empty()) {
      problems_.add(reader.path_of(key), "must not be empty");
    }
    check.expected = expected.value_or("");
    return check;
  }

  FileCheck read_file_check(const ObjectReader& reader) {
    FileCheck check;
    check.path = read_path(reader, "path");
    const auto which = one_of(reader, kFileExpectationFields);
    if (!which) return check;
    const FileExpectation kinds[] = {FileExpectation::kEquals, FileExpectation::kContains,
                                     FileExpectation::kSha256};
    check.expectation = kinds[*which];
    const std::string key(to_string(check.expectation));
    auto expected = reader.optional_string(key);
    if (expected && check.expectation == FileExpectation::kSha256) {
      problems_.check(reader.path_of(key), sha256_problem(*expected));
      expected = lower_case_hex(std::move(*expected));
    } else if (expected && check.expectation == FileExpectation::kContains && expected->empty()) {
      problems_.add(reader.path_of(key), "must not be empty");
    }
    check.expected = expected.value_or("");
    return check;
  }

  std::optional<CommandLine> read_undo(const json& value, const std::string& path) {
    if (!value.is_object()) {
      problems_.add(path,
                    "must be a command object {executable, argv, cwd, timeoutSeconds, env}, "
                    "not " +
                        json_type_name(value));
      return std::nullopt;
    }
    ObjectReader reader(value, path, problems_);
    for (const auto& [key, member] : value.items()) {
      if (contains(kCommandLineFields, key)) continue;
      problems_.add(reader.path_of(key), key == "undo" ? "an undo command has no undo of its own"
                                                       : "unknown field (an undo command has: " +
                                                             joined(kCommandLineFields) + ")");
    }
    return read_command_line(reader);
  }

  CommandLine read_command_line(const ObjectReader& reader) {
    CommandLine command;
    if (auto executable = reader.required_string("executable", kMaxPathBytes)) {
      problems_.check(reader.path_of("executable"), executable_problem(*executable));
      command.executable = std::move(*executable);
    }
    if (const json* argv = reader.find("argv")) {
      command.argv = read_argv(*argv, reader.path_of("argv"));
    }
    command.cwd = read_path(reader, "cwd");
    command.timeout_seconds =
        reader.integer("timeoutSeconds", 1, kMaxTimeoutSeconds, kDefaultCommandTimeoutSeconds)
            .value_or(kDefaultCommandTimeoutSeconds);
    if (const json* env = reader.find("env")) command.env = read_env(*env, reader.path_of("env"));
    return command;
  }

  std::vector<std::string> read_argv(const json& value, const std::string& path) {
    std::vector<std::string> argv;
    if (!value.is_array()) {
      problems_.add(path, "must be an array of strings, not " + json_type_name(value));
      return argv;
    }
    if (value.size() > kMaxArguments) {
      problems_.add(path, "at most " + std::to_string(kMaxArguments) + " arguments, got " +
                              std::to_string(value.size()));
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (problems_.check(index_path(path, i), string_problem(value[i], kMaxArgumentBytes))) {
        argv.push_back(value[i].get<std::string>());
      }
    }
    return argv;
  }

  std::map<std::string, std::string> read_env(const json& value, const std::string& path) {
    std::map<std::string, std::string> env;
    if (!value.is_object()) {
      problems_.add(path,
                    "must be an object of NAME: \"value\" strings, not " + json_type_name(value));
      return env;
    }
    if (value.size() > kMaxEnvironmentVariables) {
      problems_.add(path, "at most " + std::to_string(kMaxEnvironmentVariables) +
                              " variables, got " + std::to_string(value.size()));
    }
    for (const auto& [name, member] : value.items()) {
      const std::string member_at = member_path(path, name);
      if (!is_identifier(name) || name.size() > 128) {
        problems_.add(member_at,
                      "variable names are letters, digits and _, not starting with a "
                      "digit, at most 128 characters");
        continue;
      }
      if (problems_.check(member_at, string_problem(member, kMaxArgumentBytes))) {
        env[name] = member.get<std::string>();
      }
    }
    return env;
  }

  std::string read_path(const ObjectReader& reader, std::string_view key) {
    auto path = reader.required_string(key, kMaxPathBytes);
    if (!path) return {};
    problems_.check(reader.path_of(key), absolute_path_problem(*path));
    return std::move(*path);
  }

  std::string read_app(const ObjectReader& reader) {
    auto app = reader.required_string("app");
    if (!app) return {};
    problems_.check(reader.path_of("app"), app_problem(*app));
    return std::move(*app);
  }

  std::optional<std::string> read_window_title(const ObjectReader& reader, std::string_view key) {
    auto title = reader.optional_string(key);
    if (title) problems_.check(reader.path_of(key), title_problem(*title));
    return title;
  }

  std::optional<std::string> read_window(const ObjectReader& reader) {
    return read_window_title(reader, "window");
  }

  // role, name and id of a target or its scope, under the same rules.
  template <typename Named>
  void read_identity(ObjectReader& reader, Named& named, bool touches_value) {
    if (auto role = reader.required_string("role")) {
      const std::int64_t number = a11y::role_from_name(*role);
      if (number < 0) {
        problems_.add(reader.path_of("role"),
                      "unknown role " + in_quotes(*role) +
                          "; use a role name as snapshots print it, e.g. \"push button\"");
      } else if (touches_value && a11y::is_password_role(static_cast<std::uint32_t>(number))) {
        problems_.add(reader.path_of("role"),
                      "password fields are never read or set by automations");
      }
      named.role = std::move(*role);
    }
    named.id = reader.optional_string("id");
    if (named.id && named.id->empty()) {
      problems_.add(reader.path_of("id"), "must not be empty (leave id out instead)");
    }
    if (auto name = reader.required_string("name")) {
      if (name->empty() && !named.id) {
        problems_.add(reader.path_of("name"), "must not be empty unless id is given");
      }
      named.name = std::move(*name);
    }
  }

  std::optional<ElementScope> read_scope(const ObjectReader& target, bool acts) {
    const json* value = target.find("within");
    if (value == nullptr) return std::nullopt;
    const std::string path = target.path_of("within");
    if (!acts) {
      problems_.add(path, "only steps that act (click, set_value) take a scope");
      return std::nullopt;
    }
    if (!value->is_object()) {
      problems_.add(path, "must be a selector {role, name, id?} of an ancestor, not " + json_type_name(*value));
      return std::nullopt;
    }
    ObjectReader reader(*value, path, problems_);
    reader.allow_only(kScopeFields, "a scope");
    ElementScope scope;
    read_identity(reader, scope, false);
    return scope;
  }

  // touches_value: the step reads or sets the element's value, which password fields never
  // allow. acts: the step acts on the element (click, set_value), so it may name a scope.
  ElementSelector read_target(const ObjectReader& step, bool touches_value, bool acts = false) {
    ElementSelector selector;
    const std::string path = step.path_of("target");
    const json* value = step.find("target");
    if (value == nullptr) {
      problems_.add(path, "required: a selector {role, name, id?}");
      return selector;
    }
    if (value->is_string()) {
      problems_.add(path,
                    "refs name an element of one snapshot and do not outlive it; give a "
                    "selector {role, name, id?}");
      return selector;
    }
    if (!value->is_object()) {
      problems_.add(path, "must be a selector {role, name, id?}, not " + json_type_name(*value));
      return selector;
    }
    ObjectReader reader(*value, path, problems_);
    reader.allow_only(kTargetFields, "a target");
    read_identity(reader, selector, touches_value);
    selector.within = read_scope(reader, acts);
    return selector;
  }

  const ValidationContext& context_;
  Problems problems_{kMaxReportedProblems};
  bool schedule_ok_ = true;
};

}  // namespace

Result<Definition> validate_definition(const json& input, const ValidationContext& context) {
  return DefinitionValidator(context).run(input);
}

}  // namespace companyos::automation
