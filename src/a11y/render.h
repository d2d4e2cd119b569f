// Output forms of a snapshot view: an indented outline, one node per line, e.g.
//   e12 push button "Save" [focusable,enabled] actions=click
// and complete JSON (every field of every node in the view).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "a11y/model.h"
#include "a11y/view.h"

namespace companyos::a11y {

struct OutlineOptions {
  bool bounds = false;  // append @x,y wxh
};

// Line grammar (fields after the role appear only when they have content):
//   <indent>e<N> <role> ["<name>"] [<states>] actions=<a,b> value="<v>"|value=withheld
//   desc="<d>" id=<accessible id> twin=<group> @<x>,<y> <w>x<h> (+<K> hidden)
// Two spaces of indent per view level. Strings are quoted with \" \\ \n \t escaped; values
// longer than 200 characters are cut and end in "…". States omit the ones nearly every
// node has (visible, showing, sensitive, opaque) — JSON lists them all.
std::string render_outline(const Snapshot& snapshot, const ViewNode& view,
                           const OutlineOptions& options = {});
std::string render_outline_line(const Node& node, const OutlineOptions& options = {});

nlohmann::json node_to_json(const Snapshot& snapshot, const Node& node);
nlohmann::json bounds_to_json(const std::optional<Bounds>& bounds);
nlohmann::json window_to_json(const WindowInfo& window);
nlohmann::json app_to_json(const AppInfo& app);
// {"snapshot", "app", "pid", "window", "node_count", "stats", "tree"}: the view's tree,
// each node with ref, role, name, description, accessible_id (null where not read, see
// AccessibleIds), value, states, actions, bounds, twin, twin_group, children (and
// hidden_descendants where max_depth cut). Without the tree: the rest, for an outline reply.
nlohmann::json snapshot_to_json(const Snapshot& snapshot, const ViewNode& view, bool with_tree = true);

}  // namespace companyos::a11y
