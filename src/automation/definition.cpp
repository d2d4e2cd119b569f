#include "automation/definition.h"

#include <array>
#include <utility>

namespace companyos::automation {
namespace {

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

constexpr std::array<std::string_view, 10> kStepTypeNames = {
    "command", "open_link", "open_file", "focus", "press", "click", "set_value", "wait", "check", "pi"};

void put_optional(nlohmann::json& object, const char* key,
                  const std::optional<std::string>& value) {
  if (value) object[key] = *value;
}

void put_target(nlohmann::json& object, const std::optional<std::string>& window,
                const ElementSelector& target) {
  put_optional(object, "window", window);
  object["target"] = to_json(target);
}

nlohmann::json wait_to_json(const WaitStep& wait) {
  nlohmann::json out = std::visit(
      Overloaded{
          [](const WindowAppearsWait& c) {
            return nlohmann::json{{"wait", "window"}, {"app", c.app}, {"title", c.title}};
          },
          [](const WindowClosedWait& c) {
            nlohmann::json j{{"wait", "closed"}, {"app", c.app}};
            put_optional(j, "title", c.title);
            return j;
          },
          [](const TextAppearsWait& c) {
            return nlohmann::json{{"wait", "text"}, {"app", c.app}, {"text", c.text}};
          },
          [](const ElementWait& c) {
            nlohmann::json j{{"wait", "element"}, {"app", c.app}};
            put_target(j, c.window, c.target);
            j["predicate"] = a11y::predicate_name(c.predicate);
            put_optional(j, "value", c.value);
            return j;
          },
      },
      wait.condition);
  out["timeoutSeconds"] = wait.timeout_seconds;
  return out;
}

nlohmann::json check_to_json(const CheckStep& check) {
  nlohmann::json out =
      std::visit(Overloaded{
                     [](const FrontCheck& c) {
                       return nlohmann::json{{"check", "front"}, {"app", c.app}};
                     },
                     [](const ElementCheck& c) {
                       nlohmann::json j{{"check", "element"}, {"app", c.app}};
                       put_target(j, c.window, c.target);
                       j[std::string(to_string(c.expectation))] = c.expected;
                       return j;
                     },
                     [](const FileCheck& c) {
                       return nlohmann::json{{"check", "file"},
                                             {"path", c.path},
                                             {std::string(to_string(c.expectation)), c.expected}};
                     },
                     [](const CommandCheck& c) {
                       nlohmann::json j = to_json(c.command);
                       j["check"] = "command";
                       return j;
                     },
                 },
                 check.condition);
  // A command check's timeout is its command's, already written.
  if (!std::holds_alternative<CommandCheck>(check.condition)) {
    out["timeoutSeconds"] = check.timeout_seconds;
  }
  return out;
}

nlohmann::json steps_to_json(const std::vector<Step>& steps) {
  nlohmann::json out = nlohmann::json::array();
  for (const Step& step : steps) out.push_back(to_json(step));
  return out;
}

}  // namespace

const std::vector<Step>& Definition::steps(Phase phase) const {
  switch (phase) {
    case Phase::kPreconditions:
      return preconditions;
    case Phase::kActions:
      return actions;
    case Phase::kPostActions:
      break;
  }
  return post_actions;
}

std::size_t Definition::step_count() const {
  return preconditions.size() + actions.size() + post_actions.size();
}

std::string_view to_string(StepType type) { return kStepTypeNames[static_cast<std::size_t>(type)]; }

std::optional<StepType> step_type_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kStepTypeNames.size(); ++i) {
    if (kStepTypeNames[i] == name) return static_cast<StepType>(i);
  }
  return std::nullopt;
}

StepType step_type(const Step& step) { return static_cast<StepType>(step.body.index()); }


std::string_view to_string(ElementExpectation expectation) {
  switch (expectation) {
    case ElementExpectation::kState:
      return "state";
    case ElementExpectation::kValue:
      return "value";
    case ElementExpectation::kText:
      break;
  }
  return "text";
}

std::string_view to_string(FileExpectation expectation) {
  switch (expectation) {
    case FileExpectation::kEquals:
      return "equals";
    case FileExpectation::kContains:
      return "contains";
    case FileExpectation::kSha256:
      break;
  }
  return "sha256";
}

std::string_view to_string(Phase phase) {
  switch (phase) {
    case Phase::kPreconditions:
      return "preconditions";
    case Phase::kActions:
      return "actions";
    case Phase::kPostActions:
      break;
  }
  return "postActions";
}

std::string step_path(Phase phase, std::size_t index) {
  return std::string(to_string(phase)) + "[" + std::to_string(index) + "]";
}

void for_each_step(const Definition& definition,
                   const std::function<void(Phase, std::size_t, const Step&)>& visit) {
  for (Phase phase : {Phase::kPreconditions, Phase::kActions, Phase::kPostActions}) {
    const auto& steps = definition.steps(phase);
    for (std::size_t i = 0; i < steps.size(); ++i) visit(phase, i, steps[i]);
  }
}

nlohmann::json to_json(const ElementSelector& selector) {
  nlohmann::json out{{"role", selector.role}, {"name", selector.name}};
  put_optional(out, "id", selector.id);
  if (selector.within) {
    nlohmann::json within{{"role", selector.within->role}, {"name", selector.within->name}};
    put_optional(within, "id", selector.within->id);
    out["within"] = std::move(within);
  }
  return out;
}

nlohmann::json to_json(const CommandLine& command) {
  nlohmann::json out{{"executable", command.executable},
                     {"argv", command.argv},
                     {"cwd", command.cwd},
                     {"timeoutSeconds", command.timeout_seconds}};
  if (!command.env.empty()) out["env"] = command.env;
  return out;
}

nlohmann::json to_json(const Step& step) {
  nlohmann::json out = std::visit(Overloaded{
                                      [](const CommandStep& s) {
                                        nlohmann::json j = to_json(s.command);
                                        if (s.undo) j["undo"] = to_json(*s.undo);
                                        return j;
                                      },
                                      [](const OpenLinkStep& s) {
                                        return nlohmann::json{{"url", s.url}, {"app", s.app}};
                                      },
                                      [](const OpenFileStep& s) {
                                        return nlohmann::json{{"path", s.path}, {"app", s.app}};
                                      },
                                      [](const FocusStep& s) {
                                        return nlohmann::json{{"app", s.app}};
                                      },
                                      [](const PressStep& s) {
                                        return nlohmann::json{{"chord", s.chord}, {"app", s.app}};
                                      },
                                      [](const ClickStep& s) {
                                        nlohmann::json j{{"app", s.app}};
                                        put_target(j, s.window, s.target);
                                        return j;
                                      },
                                      [](const SetValueStep& s) {
                                        nlohmann::json j{{"app", s.app}, {"value", s.value}};
                                        put_target(j, s.window, s.target);
                                        return j;
                                      },
                                      [](const WaitStep& s) { return wait_to_json(s); },
                                      [](const CheckStep& s) { return check_to_json(s); },
                                      [](const PiStep& s) {
                                        return nlohmann::json{{"prompt", s.prompt},
                                                              {"cwd", s.cwd},
                                                              {"timeoutSeconds", s.timeout_seconds}};
                                      },
                                  },
                                  step.body);
  out["type"] = to_string(step_type(step));
  put_optional(out, "description", step.description);
  return out;
}

nlohmann::json to_json(const Definition& definition) {
  return nlohmann::json{
      {"name", definition.name},
      {"enabled", definition.enabled},
      {"schedule", definition.schedule ? nlohmann::json(*definition.schedule) : nlohmann::json()},
      {"timezone", definition.timezone},
      {"maxRetries", definition.max_retries},
      {"retryIntervalSeconds", definition.retry_interval_seconds},
      {"historyLimit", definition.history_limit},
      {"preconditions", steps_to_json(definition.preconditions)},
      {"actions", steps_to_json(definition.actions)},
      {"postActions", steps_to_json(definition.post_actions)},
  };
}

}  // namespace companyos::automation
