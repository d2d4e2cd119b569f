#include "automation/element_probe.h"

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

namespace {

// Keeps the matches under their window's one element the scope describes; the scope must
// be in some window, and unique in each window it is in (as for an action).
Status keep_within(std::vector<a11y::FoundElement>& found, const ElementScope& within) {
  const std::int64_t role = a11y::role_from_name(within.role);
  bool seen = false;
  std::vector<a11y::FoundElement> kept;
  for (const a11y::FoundElement& match : found) {
    const a11y::Snapshot& tree = *match.snapshot;
    std::vector<std::size_t> scopes;
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
      const a11y::Node& node = tree.nodes[i];
      if (static_cast<std::int64_t>(node.role) != role || node.name != within.name) continue;
      if (within.id && node.accessible_id_known && node.accessible_id != *within.id) continue;
      scopes.push_back(i);
    }
    if (scopes.size() > 1) {
      return make_error(ErrorCode::kAmbiguousTarget,
                        std::to_string(scopes.size()) + " elements of the window match the scope",
                        {{"kind", "scope_not_unique"}}, "scope by an ancestor that is unique in the window");
    }
    if (scopes.empty()) continue;
    seen = true;
    const auto index = static_cast<std::size_t>(match.node - tree.nodes.data());
    if (a11y::lies_under(tree, index, scopes.front())) kept.push_back(match);
  }
  if (!seen && !found.empty()) {
    return make_error(ErrorCode::kElementNotFound, "no element of the window matches the scope",
                      {{"kind", "scope_absent"}}, "check the scope's role and name in a snapshot of the window");
  }
  found = std::move(kept);
  return ok_status();
}

}  // namespace

Result<ElementProbe> probe_element(a11y::Observer& observer, const std::string& app,
                                   const std::optional<std::string>& window,
                                   const ElementSelector& target, Deadline deadline) {
  a11y::FindQuery query;
  query.target.app = app;
  query.target.title = window;
  query.role = target.role;
  if (!target.name.empty()) query.name = target.name;
  query.accessible_id = target.id;
  auto found = observer.find(query, deadline);
  if (!found) return std::move(found).take_error();
  if (target.within) {
    if (auto scoped = keep_within(*found, *target.within); !scoped) return std::move(scoped).take_error();
  }
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
