#include "automation/element_probe.h"

#include "a11y/selected.h"
#include "a11y/vocabulary.h"

namespace companyos::automation {

Result<a11y::Selector> to_selector(const std::string& app, const std::optional<std::string>& window,
                                   const ElementSelector& target) {
  const std::int64_t role = a11y::role_from_name(target.role);
  if (role < 0) {
    return make_error(ErrorCode::kInvalidArgs, "unknown role '" + target.role + "'",
                      {{"role", target.role}}, "use a role name as snapshots print it, e.g. \"push button\"");
  }
  a11y::Selector selector;
  selector.app = app;
  selector.role = static_cast<std::uint32_t>(role);
  selector.name = target.name;
  selector.accessible_id = target.id;
  selector.title = window;
  if (target.within) {
    const std::int64_t scope_role = a11y::role_from_name(target.within->role);
    if (scope_role < 0) {
      return make_error(ErrorCode::kInvalidArgs, "unknown role '" + target.within->role + "'",
                        {{"role", target.within->role}}, "use a role name as snapshots print it");
    }
    selector.within_element =
        a11y::ScopeSelector{static_cast<std::uint32_t>(scope_role), target.within->name, target.within->id};
  }
  return selector;
}

Result<ElementProbe> probe_element(a11y::Observer& observer, const std::string& app,
                                   const std::optional<std::string>& window,
                                   const ElementSelector& target, Deadline deadline) {
  auto selector = to_selector(app, window, target);
  if (!selector) return std::move(selector).take_error();
  auto found = a11y::find_selected(observer, *selector, deadline);
  if (!found) return std::move(found).take_error();
  ElementProbe probe;
  probe.matches = found->size();
  if (probe.matches == 1) {
    probe.node = *found->front().node;
    probe.window_title = found->front().snapshot->window.title;
  }
  return probe;
}

std::optional<std::string> element_value(const a11y::Node& node) {
  if (node.value_withheld) return std::nullopt;
  return node.value.value_or("");
}

std::string describe_target(const std::string& app, const ElementSelector& target) {
  std::string text = target.role;
  if (!target.name.empty()) text += " \"" + target.name + "\"";
  if (target.id) text += " (id \"" + *target.id + "\")";
  if (target.within) {
    text += " within " + target.within->role;
    if (!target.within->name.empty()) text += " \"" + target.within->name + "\"";
  }
  return text + " in app " + app;
}

}  // namespace companyos::automation
