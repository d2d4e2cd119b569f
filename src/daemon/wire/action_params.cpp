#include "daemon/wire/action_params.h"

#include <array>
#include <cstdint>

#include "a11y/cell_address.h"
#include "a11y/ref.h"
#include "a11y/vocabulary.h"
#include "core/text.h"

namespace companyos::wire {

using a11y::ActionKind;
using a11y::ActionRequest;
using a11y::ActionTarget;
using a11y::Expectation;
using a11y::ExpectationKind;
using a11y::RefTarget;
using a11y::Selector;
using a11y::format_ref;
using a11y::is_valid_snapshot_id;
using a11y::parse_ref;
using a11y::role_from_name;
using a11y::state_from_name;

namespace {

constexpr std::int64_t kMaxExpectationTimeoutMs = 60000;

constexpr std::array<const char*, 6> kSelectorKeys = {"app", "role", "name", "id", "window",
                                                      "title"};

Error invalid_target(std::string message, const std::string& param, std::string suggestion) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"param", param}},
                    std::move(suggestion));
}

// The string at params[key]: nullopt when absent, INVALID_ARGS when not a string.
Result<std::optional<std::string>> optional_string(const nlohmann::json& params,
                                                   const char* key) {
  const auto found = params.find(key);
  if (found == params.end() || found->is_null()) return std::optional<std::string>();
  if (!found->is_string()) {
    return invalid_target(std::string(key) + " must be a string", key, "");
  }
  return std::optional<std::string>(found->get<std::string>());
}

// "eN" (with a separate snapshot id) or the full "@id:eN" form.
Result<ActionTarget> parse_ref_target(const std::string& ref,
                                      const std::optional<std::string>& snapshot) {
  if (ref.starts_with('@')) {
    if (snapshot) {
      return invalid_target("give the snapshot either inside the ref or as snapshot, not both",
                     "snapshot", "use @<snapshot>:e<N>, or e<N> with snapshot");
    }
    auto parsed = parse_ref(ref);
    if (!parsed) return std::move(parsed).take_error();
    return ActionTarget(RefTarget{format_ref(parsed->snapshot_id, parsed->index)});
  }
  if (!snapshot) {
    return invalid_target("a bare ref needs the snapshot it comes from", "snapshot",
                   "give snapshot with e<N>, or the full form @<snapshot>:e<N>");
  }
  if (!is_valid_snapshot_id(*snapshot)) {
    return invalid_target("snapshot must be 1-16 lower-case letters or digits", "snapshot",
                   "use the id a snapshot printed");
  }
  auto parsed = parse_ref("@" + *snapshot + ":" + ref);
  if (!parsed) return std::move(parsed).take_error();
  return ActionTarget(RefTarget{format_ref(parsed->snapshot_id, parsed->index)});
}

Error invalid(std::string message, const std::string& param) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"param", param}});
}

// Text that can travel as a D-Bus string: valid UTF-8 without NUL.
bool sendable_text(const std::string& text) {
  return is_valid_utf8_without_nul(text);
}

Result<bool> optional_flag(const nlohmann::json& params, const char* key) {
  const auto found = params.find(key);
  if (found == params.end() || found->is_null()) return false;
  if (!found->is_boolean()) return invalid(std::string(key) + " must be true or false", key);
  return found->get<bool>();
}

// The params key that carries the kind's argument, or nullptr when it takes none.
const char* argument_key(ActionKind kind) {
  switch (kind) {
    case ActionKind::kSetValue:
      return "value";
    case ActionKind::kType:
      return "text";
    case ActionKind::kNamed:
      return "action";
    default:
      return nullptr;
  }
}

Result<std::string> parse_argument(ActionKind kind, const nlohmann::json& params) {
  const char* key = argument_key(kind);
  for (const char* other : {"value", "text", "action"}) {
    if (params.contains(other) && (key == nullptr || std::string_view(other) != key)) {
      return invalid(std::string(other) + " does not belong to " + std::string(method_name(kind)),
                     other);
    }
  }
  if (key == nullptr) return std::string();
  const auto found = params.find(key);
  if (found == params.end()) {
    return invalid(std::string(method_name(kind)) + " needs " + key, key);
  }
  std::string argument;
  if (kind == ActionKind::kSetValue && found->is_number()) {
    argument = found->dump();
  } else if (found->is_string()) {
    argument = found->get<std::string>();
  } else {
    return invalid(std::string(key) + " must be a string", key);
  }
  // set-value "" clears a text; typing nothing or naming no action means nothing.
  if (kind != ActionKind::kSetValue && argument.empty()) {
    return invalid(std::string(key) + " must not be empty", key);
  }
  if (!sendable_text(argument)) {
    return invalid(std::string(key) + " must be UTF-8 text without NUL characters", key);
  }
  return argument;
}

Error invalid_expectation(std::string message, const std::string& field) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"param", "expect." + field}},
                    "expect one of {\"window\":T}, {\"state\":S,\"ref\":R}, {\"text\":T}");
}

}  // namespace

Result<ActionTarget> parse_target(const nlohmann::json& params) {
  if (!params.is_object()) {
    return make_error(ErrorCode::kInvalidArgs, "params must be an object");
  }
  auto ref = optional_string(params, "ref");
  if (!ref) return std::move(ref).take_error();
  auto snapshot = optional_string(params, "snapshot");
  if (!snapshot) return std::move(snapshot).take_error();

  bool any_selector_key = false;
  for (const char* key : kSelectorKeys) {
    if (params.contains(key) && !params[key].is_null()) any_selector_key = true;
  }
  auto within_text = optional_string(params, "within");
  if (!within_text) return std::move(within_text).take_error();
  auto cell_text = optional_string(params, "cell");
  if (!cell_text) return std::move(cell_text).take_error();
  std::optional<a11y::CellAddress> cell;
  if (cell_text->has_value()) {
    auto parsed = a11y::parse_cell_address(**cell_text);
    if (!parsed) {
      Error error = std::move(parsed).take_error();
      error.details["param"] = "cell";
      return error;
    }
    cell = *parsed;
  }
  // The scope, in full form: a bare e<N> comes from the same snapshot as the ref (or the
  // snapshot param).
  auto scope = [&](const std::optional<std::string>& snapshot_id)
      -> Result<std::optional<std::string>> {
    if (!within_text->has_value()) return std::optional<std::string>();
    const bool full = (*within_text)->starts_with('@');
    auto parsed = parse_ref_target(**within_text, full ? std::nullopt : snapshot_id);
    if (!parsed) {
      Error error = std::move(parsed).take_error();
      error.details["param"] = "within";
      return error;
    }
    return std::optional<std::string>(std::get<RefTarget>(*parsed).ref);
  };
  if (ref->has_value()) {
    if (any_selector_key) {
      return invalid_target("give a ref or a selector (app, role, name), not both", "ref",
                     "drop app/role/name/id/window/title, or drop ref");
    }
    auto target = parse_ref_target(**ref, *snapshot);
    if (!target) return target;
    const std::string& full = std::get<RefTarget>(*target).ref;
    auto within = scope(full.substr(1, full.find(':') - 1));
    if (!within) return std::move(within).take_error();
    std::get<RefTarget>(*target).within = std::move(*within);
    std::get<RefTarget>(*target).cell = cell;
    return target;
  }
  if (snapshot->has_value()) {
    return invalid_target("snapshot is only used with a bare ref (e<N>)", "snapshot",
                   "add ref, or drop snapshot");
  }
  if (!any_selector_key) {
    return invalid_target("no target: give a ref, or app, role and name", "ref",
                   "e.g. {\"ref\":\"@s1a:e12\"} or {\"app\":\"gedit\",\"role\":\"push "
                   "button\",\"name\":\"Save\"}");
  }

  Selector selector;
  std::array<std::optional<std::string>, kSelectorKeys.size()> fields;
  for (std::size_t i = 0; i < kSelectorKeys.size(); ++i) {
    auto value = optional_string(params, kSelectorKeys[i]);
    if (!value) return std::move(value).take_error();
    fields[i] = std::move(value).value();
  }
  auto& [app, role, name, id, window, title] = fields;
  if (!app || app->empty()) {
    return invalid_target("a selector needs app (a non-empty app name)", "app", "add app");
  }
  // With a cell and neither role nor name, the selector names the window's one table.
  const bool the_table = cell && !role && !name;
  if (!role && !the_table) return invalid_target("a selector needs role", "role", "add role, e.g. \"push button\"");
  if (!name && !the_table) return invalid_target("a selector needs name (may be \"\")", "name", "add name");
  if (window && title) {
    return invalid_target("give window or title, not both", "title", "drop one of them");
  }
  const std::int64_t role_number = the_table ? 0 : role_from_name(*role);
  if (role_number < 0) {
    return invalid_target("unknown role \"" + *role + "\"", "role",
                   "use a role name as a snapshot prints it, e.g. \"push button\"");
  }
  selector.app = std::move(*app);
  selector.role = static_cast<std::uint32_t>(role_number);
  selector.name = name.value_or(std::string());
  selector.accessible_id = std::move(id);
  selector.cell = cell;
  selector.window_id = std::move(window);
  selector.title = std::move(title);
  auto within = scope(std::nullopt);
  if (!within) return std::move(within).take_error();
  selector.within = std::move(*within);
  return ActionTarget(std::move(selector));
}

Result<Expectation> parse_expectation(const nlohmann::json& spec) {
  if (!spec.is_object()) return invalid_expectation("expect must be an object", "");
  Expectation expectation;
  int kinds = 0;
  for (const char* key : {"window", "state", "text"}) {
    if (!spec.contains(key)) continue;
    ++kinds;
    if (!spec[key].is_string() || spec[key].get<std::string>().empty()) {
      return invalid_expectation(std::string(key) + " must be a non-empty string", key);
    }
    expectation.text = spec[key].get<std::string>();
  }
  if (kinds != 1) return invalid_expectation("give exactly one of window, state, text", "");
  for (const auto& [key, value] : spec.items()) {
    if (key != "window" && key != "state" && key != "text" && key != "ref" && key != "snapshot" &&
        key != "timeout_ms") {
      return invalid_expectation("unknown field " + key, key);
    }
  }
  if (spec.contains("timeout_ms")) {
    const auto& timeout = spec["timeout_ms"];
    if (!timeout.is_number_integer() || timeout.get<std::int64_t>() < 1 ||
        timeout.get<std::int64_t>() > kMaxExpectationTimeoutMs) {
      return invalid_expectation("timeout_ms must be a whole number from 1 to 60000", "timeout_ms");
    }
    expectation.timeout = std::chrono::milliseconds(timeout.get<std::int64_t>());
  }
  if (spec.contains("window")) {
    expectation.kind = ExpectationKind::kWindowTitle;
  } else if (spec.contains("text")) {
    expectation.kind = ExpectationKind::kText;
  } else {
    expectation.kind = ExpectationKind::kElementState;
    const auto state = state_from_name(expectation.text);
    if (!state) return invalid_expectation("unknown state " + expectation.text, "state");
    expectation.state = *state;
    nlohmann::json target = nlohmann::json::object();
    if (spec.contains("ref")) target["ref"] = spec["ref"];
    if (spec.contains("snapshot")) target["snapshot"] = spec["snapshot"];
    if (!target.contains("ref")) return invalid_expectation("a state expectation needs ref", "ref");
    auto parsed = parse_target(target);
    if (!parsed) {
      Error error = std::move(parsed).take_error();
      error.details["param"] = "expect.ref";
      return error;
    }
    expectation.element = std::move(parsed).value();
  }
  if (expectation.kind != ExpectationKind::kElementState &&
      (spec.contains("ref") || spec.contains("snapshot"))) {
    return invalid_expectation("ref belongs to a state expectation only", "ref");
  }
  return expectation;
}

Result<ActionRequest> parse_action_request(ActionKind kind, const nlohmann::json& params) {
  if (!params.is_object()) return invalid("params must be an object", "params");
  auto target = parse_target(params);
  if (!target) return std::move(target).take_error();
  ActionRequest request;
  request.kind = kind;
  request.target = std::move(target).value();
  auto strict = optional_flag(params, "strict");
  if (!strict) return std::move(strict).take_error();
  request.strict = *strict;
  auto secret = optional_flag(params, "secret");
  if (!secret) return std::move(secret).take_error();
  request.secret = *secret;
  auto argument = parse_argument(kind, params);
  if (!argument) return std::move(argument).take_error();
  request.argument = std::move(argument).value();
  if (params.contains("expect") && !params["expect"].is_null()) {
    auto expectation = parse_expectation(params["expect"]);
    if (!expectation) return std::move(expectation).take_error();
    request.expect = std::move(expectation).value();
  }
  return request;
}

}  // namespace companyos::wire
