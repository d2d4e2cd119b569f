#include "a11y/wait/conditions.h"

#include <utility>

#include "a11y/policy.h"
#include "a11y/ref.h"
#include "a11y/selected.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {
namespace {

Error invalid(std::string message, std::string suggestion) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), nlohmann::json::object(),
                    std::move(suggestion));
}

std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

// "to exist", "to have the value \"42\"", …
std::string predicate_wanted(Predicate predicate, const std::optional<std::string>& value) {
  switch (predicate) {
    case Predicate::kExists:
      return "to exist";
    case Predicate::kGone:
      return "to be gone";
    case Predicate::kValue:
      return "to have the value " + in_quotes(value.value_or(""));
    case Predicate::kState:
      return "to have the state " + value.value_or("");
  }
  return std::string();
}

// A predicate's value: required by value and state, refused by exists and gone; a state
// must be one AT-SPI names.
Status validate_predicate(Predicate predicate, const std::optional<std::string>& value) {
  const bool takes_value = predicate == Predicate::kValue || predicate == Predicate::kState;
  if (takes_value && !value) {
    return invalid("the " + std::string(predicate_name(predicate)) + " predicate needs a value", "add --value V");
  }
  if (!takes_value && value) {
    return invalid("the " + std::string(predicate_name(predicate)) + " predicate takes no value",
                   "drop --value, or use --predicate value");
  }
  if (predicate == Predicate::kState && !state_from_name(*value)) {
    return invalid("unknown state " + in_quotes(*value),
                   "use an AT-SPI state name as snapshots print them, e.g. checked, focused");
  }
  return ok_status();
}

}  // namespace

std::string describe(const WaitCondition& condition) {
  return std::visit(
      Overloaded{
          [](const WindowAppears& c) {
            return "a window titled " + in_quotes(c.title) + " of app " + c.app + " to appear";
          },
          [](const WindowClosed& c) {
            return "a window of app " + c.app + (c.title ? " titled " + in_quotes(*c.title) : "") +
                   " to close";
          },
          [](const TextAppears& c) {
            return "text " + in_quotes(c.text) + " to appear in app " + c.app;
          },
          [](const SurfaceOpens& c) {
            return "a " + std::string(c.kind ? to_string(*c.kind) : "menu, list or tooltip") + " of app " + c.app +
                   " to open";
          },
          [](const ElementPredicate& c) { return "element " + c.ref + " " + predicate_wanted(c.predicate, c.value); },
          [](const SelectedElement& c) {
            return describe(ActionTarget{c.selector}) + " " + predicate_wanted(c.predicate, c.value);
          },
      },
      condition);
}

const std::string& app_of(const WaitCondition& condition) {
  static const std::string kNone;
  return std::visit(Overloaded{
                        [](const WindowAppears& c) -> const std::string& { return c.app; },
                        [](const WindowClosed& c) -> const std::string& { return c.app; },
                        [](const TextAppears& c) -> const std::string& { return c.app; },
                        [](const SurfaceOpens& c) -> const std::string& { return c.app; },
                        [](const ElementPredicate&) -> const std::string& { return kNone; },
                        [](const SelectedElement& c) -> const std::string& { return c.selector.app; },
                    },
                    condition);
}

// ---- conditions (wait.h) -------------------------------------------------------------

std::string_view condition_kind(const WaitCondition& condition) {
  return std::visit(Overloaded{
                        [](const WindowAppears&) { return std::string_view("window_appears"); },
                        [](const WindowClosed&) { return std::string_view("window_closed"); },
                        [](const TextAppears&) { return std::string_view("text_appears"); },
                        [](const SurfaceOpens&) { return std::string_view("surface_opens"); },
                        [](const ElementPredicate&) { return std::string_view("element"); },
                        [](const SelectedElement&) { return std::string_view("element"); },
                    },
                    condition);
}

nlohmann::json condition_to_json(const WaitCondition& condition) {
  nlohmann::json json = std::visit(
      Overloaded{
          [](const WindowAppears& c) {
            return nlohmann::json{{"app", c.app}, {"title", c.title}};
          },
          [](const WindowClosed& c) {
            return nlohmann::json{{"app", c.app},
                                  {"title", c.title ? nlohmann::json(*c.title) : nlohmann::json()}};
          },
          [](const TextAppears& c) {
            return nlohmann::json{{"app", c.app}, {"text", c.text}};
          },
          [](const SurfaceOpens& c) {
            return nlohmann::json{{"app", c.app},
                                  {"surface", c.kind ? nlohmann::json(to_string(*c.kind)) : nlohmann::json()}};
          },
          [](const ElementPredicate& c) {
            return nlohmann::json{{"ref", c.ref},
                                  {"predicate", predicate_name(c.predicate)},
                                  {"value", c.value ? nlohmann::json(*c.value) : nlohmann::json()}};
          },
          [](const SelectedElement& c) {
            return nlohmann::json{{"app", c.selector.app},
                                  {"selector", describe(ActionTarget{c.selector})},
                                  {"predicate", predicate_name(c.predicate)},
                                  {"value", c.value ? nlohmann::json(*c.value) : nlohmann::json()}};
          },
      },
      condition);
  json["kind"] = condition_kind(condition);
  return json;
}

Status validate_condition(const WaitCondition& condition) {
  const std::string& app = app_of(condition);
  if (!std::holds_alternative<ElementPredicate>(condition)) {
    if (app.empty()) return invalid("the app name is empty", "name the app, as `apps` lists it");
    if (auto allowed = check_observation_allowed(app); !allowed) return allowed;
  }
  if (const auto* c = std::get_if<WindowAppears>(&condition); c && c->title.empty()) {
    return invalid("the window title is empty", "give the exact title to wait for");
  }
  if (const auto* c = std::get_if<WindowClosed>(&condition); c && c->title && c->title->empty()) {
    return invalid("the window title is empty", "leave the title out to wait for any window");
  }
  if (const auto* c = std::get_if<TextAppears>(&condition); c && c->text.empty()) {
    return invalid("the text to wait for is empty", "give at least one character of text");
  }
  if (const auto* c = std::get_if<ElementPredicate>(&condition)) {
    if (auto ref = parse_ref(c->ref); !ref) return std::move(ref).take_error();
    return validate_predicate(c->predicate, c->value);
  }
  if (const auto* c = std::get_if<SelectedElement>(&condition)) {
    if (auto st = check_selectable(c->selector); !st) return st;
    return validate_predicate(c->predicate, c->value);
  }
  return ok_status();
}

}  // namespace companyos::a11y
