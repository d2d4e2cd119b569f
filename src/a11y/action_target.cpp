#include "a11y/action_target.h"

#include <array>

#include "a11y/ref.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {
namespace {

constexpr std::array<const char*, 6> kSelectorKeys = {"app", "role", "name", "id", "window",
                                                      "title"};

Error invalid(std::string message, const std::string& field, std::string suggestion) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"field", field}},
                    std::move(suggestion));
}

// The string at params[key]: nullopt when absent, INVALID_ARGS when not a string.
Result<std::optional<std::string>> optional_string(const nlohmann::json& params,
                                                   const char* key) {
  const auto found = params.find(key);
  if (found == params.end() || found->is_null()) return std::optional<std::string>();
  if (!found->is_string()) {
    return invalid(std::string(key) + " must be a string", key, "");
  }
  return std::optional<std::string>(found->get<std::string>());
}

// "eN" (with a separate snapshot id) or the full "@id:eN" form.
Result<ActionTarget> parse_ref_target(const std::string& ref,
                                      const std::optional<std::string>& snapshot) {
  if (ref.starts_with('@')) {
    if (snapshot) {
      return invalid("give the snapshot either inside the ref or as snapshot, not both",
                     "snapshot", "use @<snapshot>:e<N>, or e<N> with snapshot");
    }
    auto parsed = parse_ref(ref);
    if (!parsed) return std::move(parsed).take_error();
    return ActionTarget(RefTarget{format_ref(parsed->snapshot_id, parsed->index)});
  }
  if (!snapshot) {
    return invalid("a bare ref needs the snapshot it comes from", "snapshot",
                   "give snapshot with e<N>, or the full form @<snapshot>:e<N>");
  }
  if (!is_valid_snapshot_id(*snapshot)) {
    return invalid("snapshot must be 1-16 lower-case letters or digits", "snapshot",
                   "use the id a snapshot printed");
  }
  auto parsed = parse_ref("@" + *snapshot + ":" + ref);
  if (!parsed) return std::move(parsed).take_error();
  return ActionTarget(RefTarget{format_ref(parsed->snapshot_id, parsed->index)});
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
  if (ref->has_value()) {
    if (any_selector_key) {
      return invalid("give a ref or a selector (app, role, name), not both", "ref",
                     "drop app/role/name/id/window/title, or drop ref");
    }
    return parse_ref_target(**ref, *snapshot);
  }
  if (snapshot->has_value()) {
    return invalid("snapshot is only used with a bare ref (e<N>)", "snapshot",
                   "add ref, or drop snapshot");
  }
  if (!any_selector_key) {
    return invalid("no target: give a ref, or app, role and name", "ref",
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
    return invalid("a selector needs app (a non-empty app name)", "app", "add app");
  }
  if (!role) return invalid("a selector needs role", "role", "add role, e.g. \"push button\"");
  if (!name) return invalid("a selector needs name (may be \"\")", "name", "add name");
  if (window && title) {
    return invalid("give window or title, not both", "title", "drop one of them");
  }
  const std::int64_t role_number = role_from_name(*role);
  if (role_number < 0) {
    return invalid("unknown role \"" + *role + "\"", "role",
                   "use a role name as a snapshot prints it, e.g. \"push button\"");
  }
  selector.app = std::move(*app);
  selector.role = static_cast<std::uint32_t>(role_number);
  selector.name = std::move(*name);
  selector.accessible_id = std::move(id);
  selector.window_id = std::move(window);
  selector.title = std::move(title);
  return ActionTarget(std::move(selector));
}

std::string describe(const ActionTarget& target) {
  if (const auto* ref = std::get_if<RefTarget>(&target)) return ref->ref;
  const auto& selector = std::get<Selector>(target);
  std::string text = role_name(selector.role) + " \"" + selector.name + "\"";
  if (selector.accessible_id) text += " (id " + *selector.accessible_id + ")";
  return text + " in app " + selector.app;
}

}  // namespace companyos::a11y
