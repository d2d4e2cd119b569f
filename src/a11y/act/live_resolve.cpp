#include "a11y/live_resolve.h"

#include <atspi/atspi.h>

#include <algorithm>
#include <limits>

#include "a11y/bus/message_fields.h"
#include "a11y/policy.h"
#include "a11y/read/cell_read.h"
#include "a11y/read/details.h"
#include "a11y/read/snapshot.h"
#include "a11y/ref.h"
#include "core/text.h"

namespace companyos::a11y {
namespace {

constexpr std::size_t kMaxCandidatesShown = 20;
constexpr std::size_t kMaxNearNames = 5;

struct Candidate {
  std::shared_ptr<Snapshot> tree;  // the live read the node belongs to
  std::size_t index = 0;           // into tree->nodes
  const Node& node() const { return tree->nodes[index]; }
};

nlohmann::json candidates_json(const std::vector<Candidate>& candidates) {
  nlohmann::json list = nlohmann::json::array();
  for (const Candidate& candidate : candidates) {
    if (list.size() >= kMaxCandidatesShown) break;
    const Node& node = candidate.node();
    nlohmann::json entry = {
        {"window", candidate.tree->window.id},
        {"position", node.ref},
        {"role", role_name(node.role)},
        {"name", node.name},
        {"description", node.description},
        {"accessible_id",
         node.accessible_id_known ? nlohmann::json(node.accessible_id) : nlohmann::json()},
    };
    if (node.parent >= 0) {
      const Node& parent = candidate.tree->nodes[static_cast<std::size_t>(node.parent)];
      entry["parent"] = {{"role", role_name(parent.role)}, {"name", parent.name}};
    }
    list.push_back(std::move(entry));
  }
  return list;
}

Error not_unique(std::string message, nlohmann::json details,
                 const std::vector<Candidate>& candidates) {
  details["kind"] = "identity_not_unique";
  details["count"] = candidates.size();
  details["candidates"] = candidates_json(candidates);
  return make_error(ErrorCode::kAmbiguousTarget, std::move(message), std::move(details),
                    "take a new snapshot (twins are marked there) and pick an element with a "
                    "unique name or id");
}

Error window_gone(const WindowInfo& window, const std::string& ref) {
  nlohmann::json details = {{"kind", "window_gone"}, {"window", window.id}, {"title", window.title}};
  if (!ref.empty()) details["ref"] = ref;
  return make_error(ErrorCode::kWindowNotFound, "the window is gone", std::move(details),
                    "list windows again and take a new snapshot");
}

// The whole window's structure, read live (no actions, bounds or values).
Result<std::shared_ptr<Snapshot>> read_structure(Observer& observer, const WindowInfo& window,
                                                 Deadline deadline, const std::string& ref,
                                                 bool shown_cells = true, bool showing_only = false,
                                                 BulkReads* bulk_reads = nullptr) {
  SnapshotOptions structure;
  structure.details_enabled = false;
  structure.shown_cells = shown_cells;
  structure.showing_only = showing_only;
  structure.bulk_reads = bulk_reads;
  auto live = read_window(observer.bus(), window, deadline, structure);
  if (!live) {
    const ErrorCode code = live.error().code;
    if (code == ErrorCode::kWindowNotFound || code == ErrorCode::kAppNotFound) {
      return window_gone(window, ref);
    }
    return std::move(live).take_error();
  }
  if (live->stats.truncated) {
    // A cut tree could hide a twin: never act on it.
    return make_error(ErrorCode::kInternal,
                      "the window has too many elements to check that the target is unique",
                      {{"window", window.id}, {"nodes", live->nodes.size()}});
  }
  return std::make_shared<Snapshot>(std::move(live).value());
}

// Reads, in one round of pipelined calls, the accessible id of every candidate whose id
// is not known yet (and the bounds of the ones asked for). A candidate the app says is
// gone is dropped; one that fails otherwise keeps an unknown id and stays a candidate, so
// a failed read can only make a target look less unique, never more.
Status read_candidate_fields(Observer& observer, const WindowInfo& window,
                             std::vector<Candidate>& candidates, bool bounds, Deadline deadline) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<bool> needs_id(candidates.size());
  bool any = bounds;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    needs_id[i] = !candidates[i].node().accessible_id_known;
    any = any || needs_id[i];
  }
  if (!any || candidates.empty()) return ok_status();
  auto opened = observer.bus().app_pipeline(window.bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  Pipeline* pipeline = &opened->pipeline;
  const ToolkitTraits traits = opened->app.traits();
  std::vector<bool> gone(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    Node& node = candidates[i].tree->nodes[candidates[i].index];
    if (needs_id[i]) {
      pipeline->call(node.path.c_str(), kPropertiesInterface, "Get",
                     [&node, &gone, i](sd_bus_message* reply) {
                       if (reply_says_gone(reply)) gone[i] = true;
                       if (error_name(reply) != nullptr) return;
                       if (auto id = read_variant_string(reply)) {
                         node.accessible_id = std::move(*id);
                         node.accessible_id_known = true;
                       }
                     },
                     "ss", kAccessibleInterface, "AccessibleId");
    }
    if (bounds && plan_details(node, DetailOptions{}, traits).bounds) {
      pipeline->call(node.path.c_str(), "org.a11y.atspi.Component", "GetExtents",
                     [&node](sd_bus_message* reply) {
                       if (error_name(reply) != nullptr) return;
                       auto read = read_extents(reply);
                       if (read && read->x != std::numeric_limits<std::int32_t>::min() &&
                           read->y != std::numeric_limits<std::int32_t>::min()) {
                         node.bounds = read;
                       }
                     },
                     "u", traits.extents_coord_type);
    }
  }
  if (!pipeline->wait()) {
    if (pipeline->disconnected()) return window_gone(window, {});
    return app_unresponsive(window.app_name, window.bus_name, started, "resolving a target");
  }
  std::vector<Candidate> kept;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!gone[i]) kept.push_back(std::move(candidates[i]));
  }
  candidates = std::move(kept);
  return ok_status();
}

std::optional<ContainerInfo> container_of(const Snapshot& tree, int index) {
  if (index < 0) return std::nullopt;
  const Node& node = tree.nodes[static_cast<std::size_t>(index)];
  return ContainerInfo{node.path, node.role, node.interfaces};
}

LiveTarget target_from(const Candidate& candidate, const WindowInfo& window) {
  const Snapshot& tree = *candidate.tree;
  const Node& node = candidate.node();
  LiveTarget target;
  target.window = window;
  target.app_name = window.app_name;
  target.bus_name = window.bus_name;
  target.pid = window.pid;
  target.node = node;
  target.parent = container_of(tree, node.parent);
  if (node.parent >= 0) {
    target.grandparent = container_of(tree, tree.nodes[static_cast<std::size_t>(node.parent)].parent);
  }
  target.position = node.ref;
  target.window_nodes = tree.nodes.size();
  target.structure = candidate.tree;
  return target;
}

// Whether the node and every node above it in TREE is showing: of a read that left what is
// not showing as the bulk read listed it (showing_only), only these were read whole.
bool showing_with_ancestors(const Snapshot& tree, std::size_t index) {
  for (int at = static_cast<int>(index); at >= 0; at = tree.nodes[static_cast<std::size_t>(at)].parent) {
    if (!has_state(tree.nodes[static_cast<std::size_t>(at)].states, ATSPI_STATE_SHOWING)) return false;
  }
  return true;
}

// The nodes of TREE with IDENTITY's role, name and description (ids compared apart).
std::vector<Candidate> nodes_like(const std::shared_ptr<Snapshot>& tree, const Identity& identity) {
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < tree->nodes.size(); ++i) {
    const Node& node = tree->nodes[i];
    if (node.role == identity.role && node.name == identity.name &&
        node.description == identity.description) {
      candidates.push_back({tree, i});
    }
  }
  return candidates;
}

// Drops the candidates whose id was read and is not IDENTITY's; an id that could not be
// read cannot rule a candidate out.
void drop_other_ids(std::vector<Candidate>& candidates, const Identity& identity) {
  std::erase_if(candidates, [&](const Candidate& candidate) {
    const Node& node = candidate.node();
    return node.accessible_id_known && !matches_identity(identity, node);
  });
}

// The one node of the live TREE with the identity of the scope ref WITHIN, which must come
// from a snapshot of the same window. A scope that is gone is STALE_REF, one that is not
// unique AMBIGUOUS_TARGET: a scope narrows the target only when it is itself certain.
Result<std::size_t> resolve_scope(Observer& observer, const std::shared_ptr<Snapshot>& tree,
                                  const WindowInfo& window, const std::string& within,
                                  Deadline deadline) {
  auto ref = parse_ref(within);
  if (!ref) return std::move(ref).take_error();
  auto stored = observer.store().lookup(*ref);
  if (!stored) return std::move(stored).take_error();
  if (stored->snapshot->window.id != window.id) {
    return make_error(ErrorCode::kInvalidArgs, "within must name an element of the same window",
                      {{"param", "within"}, {"within", within},
                       {"scope_window", stored->snapshot->window.id}, {"window", window.id}},
                      "take the scope's ref from a snapshot of the target's window");
  }
  std::vector<Candidate> scopes = nodes_like(tree, stored->identity);
  if (auto read = read_candidate_fields(observer, window, scopes, false, deadline); !read) {
    return std::move(read).take_error();
  }
  drop_other_ids(scopes, stored->identity);
  if (scopes.empty()) {
    return make_error(ErrorCode::kStaleRef, "no element of the window has the scope's identity any more",
                      {{"kind", "scope_absent"}, {"within", within}},
                      "take a new snapshot and use its refs");
  }
  if (scopes.size() > 1) {
    auto error = not_unique(std::to_string(scopes.size()) + " elements of the window have the scope's identity",
                            {{"within", within}}, scopes);
    error.details["kind"] = "scope_not_unique";
    error.suggestion = "scope by an ancestor that is unique in the window";
    return error;
  }
  return scopes.front().index;
}

// The one node of the live TREE that SCOPE describes, under the same rules as a scope ref:
// none is ELEMENT_NOT_FOUND (scope_absent), several AMBIGUOUS_TARGET (scope_not_unique).
Result<std::size_t> resolve_scope_selector(Observer& observer, const std::shared_ptr<Snapshot>& tree,
                                           const WindowInfo& window, const ScopeSelector& scope,
                                           Deadline deadline) {
  std::vector<Candidate> scopes;
  for (std::size_t i = 0; i < tree->nodes.size(); ++i) {
    if (tree->nodes[i].role == scope.role && tree->nodes[i].name == scope.name) scopes.push_back({tree, i});
  }
  nlohmann::json asked = {{"role", role_name(scope.role)}, {"name", scope.name}};
  if (scope.accessible_id) {
    asked["id"] = *scope.accessible_id;
    if (auto read = read_candidate_fields(observer, window, scopes, false, deadline); !read) {
      return std::move(read).take_error();
    }
    std::erase_if(scopes, [&](const Candidate& candidate) {
      return candidate.node().accessible_id_known && candidate.node().accessible_id != *scope.accessible_id;
    });
  }
  if (scopes.empty()) {
    return make_error(ErrorCode::kElementNotFound, "no element of the window matches the scope",
                      {{"kind", "scope_absent"}, {"within", asked}},
                      "check the scope's role and name in a snapshot of the window");
  }
  if (scopes.size() > 1) {
    auto error = not_unique(std::to_string(scopes.size()) + " elements of the window match the scope",
                            {{"within", asked}}, scopes);
    error.details["kind"] = "scope_not_unique";
    error.suggestion = "scope by an ancestor that is unique in the window";
    return error;
  }
  return scopes.front().index;
}

// Keeps the candidates under the scope (a ref WITHIN, or the element SCOPE describes),
// when one is given.
Status keep_within(Observer& observer, const std::optional<std::string>& within,
                   const std::shared_ptr<Snapshot>& tree, const WindowInfo& window,
                   std::vector<Candidate>& candidates, Deadline deadline,
                   const std::optional<ScopeSelector>& scope_selector = std::nullopt) {
  if (!within && !scope_selector) return ok_status();
  auto scope = within ? resolve_scope(observer, tree, window, *within, deadline)
                      : resolve_scope_selector(observer, tree, window, *scope_selector, deadline);
  if (!scope) return std::move(scope).take_error();
  std::erase_if(candidates, [&](const Candidate& candidate) {
    return !lies_under(*candidate.tree, candidate.index, *scope);
  });
  return ok_status();
}

// A ref of a cell its table was read by what it showed is reached through that table and
// its address: unique by construction, and still there once the sheet has scrolled.
RefTarget cell_ref_as_table(Observer& observer, const RefTarget& target) {
  if (target.cell) return target;
  auto ref = parse_ref(target.ref);
  if (!ref) return target;
  auto stored = observer.store().lookup(*ref);
  if (!stored || !stored->node->cell || stored->node->parent < 0) return target;
  const Snapshot& saved = *stored->snapshot;
  const Node& table = saved.nodes[static_cast<std::size_t>(stored->node->parent)];
  if (!table.shown) return target;
  return RefTarget{format_ref(saved.id, table.ref), target.within,
                   CellAddress{stored->node->cell->row, stored->node->cell->column}};
}

// The cell at ADDRESS of the table TABLE resolved to, read live.
Result<LiveTarget> resolve_cell(Observer& observer, LiveTarget table, const CellAddress& address,
                                Deadline deadline, const ResolveOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  auto opened = observer.bus().app_pipeline(table.bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  Pipeline* pipeline = &opened->pipeline;
  const ToolkitTraits traits = opened->app.traits();
  std::optional<CellRead> read;
  read_cell(*pipeline, table.node.path, address, traits, [&read](CellRead cell) { read = std::move(cell); });
  if (!pipeline->wait() || !read) {
    if (pipeline->disconnected()) return window_gone(table.window, table.ref);
    return app_unresponsive(table.window.app_name, table.bus_name, started, "reading a cell");
  }
  const std::string address_text = to_string(address);
  switch (read->outcome) {
    case CellRead::Outcome::kNotATable:
      return make_error(ErrorCode::kInvalidArgs,
                        "cell needs a table: " + role_name(table.node.role) + " \"" + table.node.name +
                            "\" has no rows and columns",
                        {{"param", "cell"}, {"cell", address_text}, {"role", role_name(table.node.role)}},
                        "name the table itself (its line in a snapshot says what it shows)");
    case CellRead::Outcome::kOutsideTable:
      return make_error(ErrorCode::kElementNotFound,
                        "the table has no cell " + address_text + ": it has " + with_thousands(read->rows) +
                            " rows and " + with_thousands(read->columns) + " columns",
                        {{"kind", "cell_outside_table"}, {"cell", address_text}, {"rows", read->rows},
                         {"columns", read->columns}},
                        "give a cell within the table");
    case CellRead::Outcome::kNoCell:
      return make_error(ErrorCode::kElementNotFound, "the table gave no cell at " + address_text,
                        {{"kind", "no_cell"}, {"cell", address_text}}, "take a new snapshot of the window");
    case CellRead::Outcome::kRead:
      break;
  }
  const RawNode& raw = read->cell->node;
  LiveTarget target = std::move(table);
  target.table_rows = read->rows;
  target.table_columns = read->columns;
  target.grandparent = target.parent;
  target.parent = ContainerInfo{target.node.path, target.node.role, target.node.interfaces};
  Node node = cell_node(raw, traits);
  node.ref = target.node.ref;
  target.node = std::move(node);
  // The snapshot's record was the table's: a cell is checked by its own live read.
  target.snapshot = nullptr;
  target.stored = nullptr;
  if (options.read_bounds && (target.node.interfaces & kInterfaceComponent) != 0) {
    pipeline->call(target.node.path.c_str(), "org.a11y.atspi.Component", "GetExtents",
                   [&target](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     auto bounds = read_extents(reply);
                     if (bounds && bounds->x != std::numeric_limits<std::int32_t>::min()) target.node.bounds = bounds;
                   },
                   "u", traits.extents_coord_type);
    if (!pipeline->wait()) return app_unresponsive(target.window.app_name, target.bus_name, started, "reading a cell");
  }
  return target;
}

Result<LiveTarget> resolve_ref(Observer& observer, const RefTarget& target, Deadline deadline,
                               const ResolveOptions& options) {
  auto ref = parse_ref(target.ref);
  if (!ref) return std::move(ref).take_error();
  auto stored = observer.store().lookup(*ref);
  if (!stored) return std::move(stored).take_error();
  const Snapshot& saved = *stored->snapshot;
  if (auto allowed = check_observation_allowed(saved.app_name); !allowed) {
    return std::move(allowed).take_error();
  }
  auto tree = read_structure(observer, saved.window, deadline, target.ref, options.shown_cells);
  if (!tree) return std::move(tree).take_error();

  const Identity& identity = stored->identity;
  std::vector<Candidate> candidates = nodes_like(*tree, identity);
  if (auto scoped = keep_within(observer, target.within, *tree, saved.window, candidates, deadline);
      !scoped) {
    if (scoped.error().code == ErrorCode::kWindowNotFound) return window_gone(saved.window, target.ref);
    return std::move(scoped).take_error();
  }
  // Every candidate's id is read, even when the ref's id was never recorded: the target's
  // id then joins its strict fingerprint, and twins are reported with their ids.
  if (auto read = read_candidate_fields(observer, saved.window, candidates, false, deadline);
      !read) {
    if (read.error().code == ErrorCode::kWindowNotFound) return window_gone(saved.window, target.ref);
    return std::move(read).take_error();
  }
  drop_other_ids(candidates, identity);
  if (candidates.empty()) {
    nlohmann::json details = {{"kind", target.within ? "not_within_scope" : "saved_ref_absent"},
                              {"ref", target.ref},
                              {"role", role_name(identity.role)},
                              {"name", identity.name}};
    if (target.within) details["within"] = *target.within;
    return make_error(ErrorCode::kStaleRef,
                      target.within ? "no element under the scope has the ref's identity"
                                    : "no element of the window has the ref's identity any more",
                      std::move(details), "take a new snapshot and use its refs");
  }
  if (candidates.size() > 1) {
    nlohmann::json details = {{"ref", target.ref}};
    if (target.within) details["within"] = *target.within;
    // The snapshot named an ancestor that holds this twin alone: the way out, spelled out.
    std::optional<std::string> scope;
    if (!target.within && stored->node->twin_scope >= 0) {
      scope = format_ref(saved.id, saved.nodes[static_cast<std::size_t>(stored->node->twin_scope)].ref);
      details["scope"] = *scope;
    }
    Error error = not_unique(std::to_string(candidates.size()) +
                                 (target.within ? " elements under the scope have the ref's identity"
                                                : " elements of the window have the ref's identity"),
                             std::move(details), candidates);
    if (scope) error.suggestion = "repeat with --within " + *scope + ": the element that holds only this one";
    return error;
  }
  if (options.read_bounds) {
    if (auto read = read_candidate_fields(observer, saved.window, candidates, true, deadline);
        !read) {
      return std::move(read).take_error();
    }
    if (candidates.empty()) {
      return make_error(ErrorCode::kStaleRef, "the element went away while it was resolved",
                        {{"kind", "saved_ref_absent"}, {"ref", target.ref}},
                        "take a new snapshot and use its refs");
    }
  }
  LiveTarget resolved = target_from(candidates.front(), saved.window);
  resolved.ref = target.ref;
  resolved.snapshot = stored->snapshot;
  resolved.stored = stored->node;
  resolved.pid = saved.pid;
  return resolved;
}

Result<std::vector<WindowInfo>> selector_windows(Observer& observer, const Selector& selector,
                                                 Deadline deadline) {
  auto windows = observer.windows(selector.app, deadline);
  if (!windows) return std::move(windows).take_error();
  std::vector<WindowInfo> chosen;
  for (WindowInfo& window : *windows) {
    if (selector.window_id && window.id != *selector.window_id) continue;
    if (selector.title && window.title != *selector.title) continue;
    chosen.push_back(std::move(window));
  }
  if (chosen.empty()) {
    nlohmann::json details = {{"app", selector.app}};
    if (selector.window_id) details["window"] = *selector.window_id;
    if (selector.title) details["title"] = *selector.title;
    return make_error(ErrorCode::kWindowNotFound, "app " + selector.app + " has no such window",
                      std::move(details), "list the app's windows");
  }
  return chosen;
}

Result<LiveTarget> resolve_selector(Observer& observer, const Selector& selector,
                                    Deadline deadline, const ResolveOptions& options) {
  auto windows = selector_windows(observer, selector, deadline);
  if (!windows) return std::move(windows).take_error();
  // A cell with neither role nor name: of the window's one table on screen. Without a scope
  // (whose uniqueness counts the whole window), the read needs only what can be on screen.
  const bool the_table = selector.cell && selector.role == 0;
  const bool showing_only = the_table && !selector.within && !selector.within_element;
  std::vector<Candidate> candidates;
  std::vector<const WindowInfo*> windows_of;  // per candidate
  // Names of the role equal to the asked one but for white space at the ends and ASCII
  // case: said when nothing matches exactly.
  nlohmann::json near_names = nlohmann::json::array();
  const std::string wanted_loosely(trim_ascii_space(selector.name));
  // With a scope, only the window of the scope's snapshot is read.
  std::optional<std::string> scope_window;
  if (selector.within) {
    auto scope_ref = parse_ref(*selector.within);
    if (!scope_ref) return std::move(scope_ref).take_error();
    auto scope = observer.store().lookup(*scope_ref);
    if (!scope) return std::move(scope).take_error();
    scope_window = scope->snapshot->window.id;
  }
  std::optional<Error> scope_missing;  // a scope by identity absent from a window
  BulkReads bulk_reads;                // the app's windows share its one GetItems answer
  for (const WindowInfo& window : *windows) {
    if (scope_window && window.id != *scope_window) continue;
    auto tree = read_structure(observer, window, deadline, {}, options.shown_cells, showing_only, &bulk_reads);
    if (!tree) {
      if (tree.error().code == ErrorCode::kWindowNotFound) continue;  // closed meanwhile
      return std::move(tree).take_error();
    }
    std::vector<Candidate> found;
    for (std::size_t i = 0; i < (*tree)->nodes.size(); ++i) {
      const Node& node = (*tree)->nodes[i];
      if (the_table) {
        if ((node.interfaces & kInterfaceTable) != 0 && showing_with_ancestors(**tree, i)) found.push_back({*tree, i});
        continue;
      }
      if (node.role != selector.role) continue;
      if (node.name == selector.name) {
        found.push_back({*tree, i});
      } else if (near_names.size() < kMaxNearNames &&
                 equals_ignoring_ascii_case(trim_ascii_space(node.name), wanted_loosely)) {
        near_names.push_back(node.name);
      }
    }
    if (auto scoped = keep_within(observer, selector.within, *tree, window, found, deadline,
                                  selector.within_element);
        !scoped) {
      if (scoped.error().code == ErrorCode::kWindowNotFound) continue;
      // A scope by identity may be in another of the app's windows.
      if (scoped.error().code == ErrorCode::kElementNotFound) {
        scope_missing = std::move(scoped).take_error();
        continue;
      }
      return std::move(scoped).take_error();
    }
    if (selector.accessible_id) {
      if (auto read = read_candidate_fields(observer, window, found, false, deadline); !read) {
        if (read.error().code == ErrorCode::kWindowNotFound) continue;
        return std::move(read).take_error();
      }
      std::erase_if(found, [&](const Candidate& candidate) {
        return candidate.node().accessible_id_known &&
               candidate.node().accessible_id != *selector.accessible_id;
      });
    }
    for (Candidate& candidate : found) {
      candidates.push_back(std::move(candidate));
      windows_of.push_back(&window);
    }
  }
  nlohmann::json asked = the_table ? nlohmann::json{{"app", selector.app}, {"table", "the window's one on screen"}}
                                   : nlohmann::json{{"app", selector.app}, {"role", role_name(selector.role)},
                                                    {"name", selector.name}};
  if (the_table && candidates.empty() && !scope_missing) {
    return make_error(ErrorCode::kElementNotFound, "no window of the app shows a table",
                      {{"kind", "no_match"}, {"selector", asked}},
                      "take a snapshot of the app: a table's line says what it shows");
  }
  if (the_table && candidates.size() > 1) {
    return not_unique(std::to_string(candidates.size()) + " tables on screen: the cell's table must be named",
                      {{"selector", asked}}, candidates);
  }
  if (selector.accessible_id) asked["id"] = *selector.accessible_id;
  if (selector.within) asked["within"] = *selector.within;
  if (selector.within_element) {
    asked["within"] = {{"role", role_name(selector.within_element->role)}, {"name", selector.within_element->name}};
    if (selector.within_element->accessible_id) asked["within"]["id"] = *selector.within_element->accessible_id;
  }
  if (candidates.empty()) {
    if (scope_missing) return std::move(*scope_missing);
    if (!near_names.empty()) {
      // The name must be given exactly (an action acts on exactly what it was told to),
      // but a name the toolkit pads (GTK 3 menu items: "Open...      ") is said.
      return make_error(ErrorCode::kElementNotFound, "no element matches the selector",
                        {{"kind", "no_match"}, {"selector", asked}, {"near_matches", near_names}},
                        "the app spells it \"" + near_names.front().get<std::string>() +
                            "\": give that exact name");
    }
    return make_error(ErrorCode::kElementNotFound, "no element matches the selector",
                      {{"kind", "no_match"}, {"selector", asked}},
                      "take a snapshot of the app and check role and name");
  }
  if (candidates.size() > 1) {
    return not_unique(std::to_string(candidates.size()) + " elements match the selector",
                      {{"selector", asked}}, candidates);
  }
  const WindowInfo& window = *windows_of.front();
  // The id and (when asked) bounds of the one match, for its fingerprint.
  if (auto read = read_candidate_fields(observer, window, candidates, options.read_bounds,
                                        deadline);
      !read) {
    return std::move(read).take_error();
  }
  if (candidates.empty()) {
    return make_error(ErrorCode::kElementNotFound, "the element went away while it was resolved",
                      {{"kind", "no_match"}, {"selector", asked}}, "try again");
  }
  return target_from(candidates.front(), window);
}

}  // namespace

Result<LiveTarget> resolve_live(Observer& observer, const ActionTarget& target, Deadline deadline,
                                const ResolveOptions& options) {
  std::optional<CellAddress> cell;
  // A cell's table is resolved without the cells it shows: the cell is fetched by address.
  const ResolveOptions the_table{.read_bounds = false, .shown_cells = false};
  Result<LiveTarget> resolved = [&]() -> Result<LiveTarget> {
    if (const auto* ref = std::get_if<RefTarget>(&target)) {
      RefTarget table = cell_ref_as_table(observer, *ref);
      cell = table.cell;
      return resolve_ref(observer, table, deadline, cell ? the_table : options);
    }
    const auto& selector = std::get<Selector>(target);
    cell = selector.cell;
    return resolve_selector(observer, selector, deadline, cell ? the_table : options);
  }();
  if (!resolved || !cell) return resolved;
  return resolve_cell(observer, std::move(resolved).value(), *cell, deadline, options);
}

}  // namespace companyos::a11y
