#include "a11y/selected.h"

#include <string>
#include <utility>

#include "a11y/model.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {
namespace {

// Keeps the matches under their window's one element the scope describes; the scope must
// be in some window, and unique in each window it is in (as for an action).
Status keep_within(std::vector<FoundElement>& found, const ScopeSelector& within) {
  bool seen = false;
  std::vector<FoundElement> kept;
  for (const FoundElement& match : found) {
    const Snapshot& tree = *match.snapshot;
    std::vector<std::size_t> scopes;
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
      const Node& node = tree.nodes[i];
      if (node.role != within.role || node.name != within.name) continue;
      if (within.accessible_id && node.accessible_id_known && node.accessible_id != *within.accessible_id) continue;
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
    if (lies_under(tree, index, scopes.front())) kept.push_back(match);
  }
  if (!seen && !found.empty()) {
    return make_error(ErrorCode::kElementNotFound, "no element of the window matches the scope",
                      {{"kind", "scope_absent"}}, "check the scope's role and name in a snapshot of the window");
  }
  found = std::move(kept);
  return ok_status();
}

}  // namespace

Status check_selectable(const Selector& selector) {
  if (!selector.window_id && !selector.within && !selector.cell) return ok_status();
  return make_error(ErrorCode::kInvalidArgs,
                    "an element selector here names its window by title and its scope by role and name",
                    {{"app", selector.app}}, "leave out the window id, the scope's ref and the cell");
}

Result<std::vector<FoundElement>> find_selected(Observer& observer, const Selector& selector,
                                                Deadline deadline) {
  if (auto st = check_selectable(selector); !st) return std::move(st).take_error();
  FindQuery query;
  query.target.app = selector.app;
  query.target.title = selector.title;
  query.role = std::string(role_name(selector.role));
  if (!selector.name.empty()) query.name = selector.name;
  query.accessible_id = selector.accessible_id;
  auto found = observer.find(query, deadline);
  if (!found) return std::move(found).take_error();
  if (selector.within_element) {
    if (auto scoped = keep_within(*found, *selector.within_element); !scoped) return std::move(scoped).take_error();
  }
  return found;
}

}  // namespace companyos::a11y
