#include "a11y/observer.h"

#include <algorithm>

#include "a11y/bus/message_fields.h"
#include "a11y/bus/variant_fields.h"
#include "a11y/policy.h"
#include "a11y/read/cells_at_address.h"
#include "a11y/read/live_read.h"
#include "a11y/ref.h"
#include "a11y/render.h"
#include "a11y/toolkit/traits.h"

namespace companyos::a11y {
namespace {

bool text_equals(std::string_view a, std::string_view b, bool ignore_case) {
  if (!ignore_case) return a == b;
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return g_ascii_tolower(x) == g_ascii_tolower(y);
         });
}

bool matches(const Node& node, const FindQuery& query) {
  if (query.role && !text_equals(role_name(node.role), *query.role, query.ignore_case)) return false;
  if (query.name && !text_equals(node.name, *query.name, query.ignore_case)) return false;
  if (query.accessible_id &&
      !text_equals(node.accessible_id, *query.accessible_id, query.ignore_case)) {
    return false;
  }
  return true;
}

std::chrono::milliseconds remaining(Deadline deadline) {
  return std::max(std::chrono::milliseconds(0),
                  std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now()));
}

Error stale(std::string message, const std::string& ref, std::string kind) {
  return make_error(ErrorCode::kStaleRef, std::move(message), {{"ref", ref}, {"kind", std::move(kind)}},
                    "take a new snapshot and use its refs");
}

// The window as its snapshot saw it: the root node was read with the rest, so its title,
// states and bounds are as fresh as the tree's.
void refresh_window(Snapshot& snapshot) {
  const Node& root = snapshot.nodes.front();
  snapshot.window.title = root.name;
  snapshot.window.role = role_name(root.role);
  snapshot.window.states = root.states;
  snapshot.window.bounds = root.bounds;
}

Result<Pipeline> app_pipeline(Bus& bus, const std::string& bus_name, Deadline deadline) {
  auto channel = [&] {
    CallScope scope(deadline);
    return bus.app_channel(scope, bus_name);
  }();
  if (!channel) return std::move(channel).take_error();
  return bus.pipeline(*channel, deadline);
}

}  // namespace

Observer::Observer(ObserverOptions options)
    : options_(std::move(options)),
      store_(options_.snapshots_per_window, options_.snapshots_total) {}

Status Observer::probe(Deadline deadline) {
  CallScope scope(deadline);
  return bus_.probe(scope);
}

BusHealth Observer::bus_health(Deadline deadline) {
  BusHealth health;
  {
    CallScope scope(deadline);
    ConnectionRef session;
    scope.session_bus([&session](ConnectionRef connection, const GError*) { session = std::move(connection); });
    scope.wait();
    if (session) {
      scope.call(Channel{session, "org.a11y.Bus", nullptr}, "/org/a11y/bus", kPropertiesInterface, "Get",
                 g_variant_new("(ss)", "org.a11y.Status", "IsEnabled"), [&health](GVariant* reply, const GError*) {
                   const VariantPtr value = property_value(reply);
                   if (value && g_variant_is_of_type(value.get(), G_VARIANT_TYPE_BOOLEAN)) {
                     health.enabled = g_variant_get_boolean(value.get()) != FALSE;
                   }
                 });
      scope.wait();
    }
  }
  {
    CallScope scope(deadline);
    auto bus = bus_.bus_channel(scope);
    if (!bus) {
      health.error = bus.error().message;
      return health;
    }
    health.bus = true;
  }
  auto registry = probe(deadline);
  health.registry = registry.ok();
  if (!registry) {
    health.error = registry.error().message;
    return health;
  }
  CallScope scope(deadline);
  auto bus = bus_.bus_channel(scope);
  if (!bus) return health;
  Channel registry_root = *bus;
  registry_root.destination = kRegistryName;
  scope.call(registry_root, kRootPath, kPropertiesInterface, "Get",
             g_variant_new("(ss)", kAccessibleInterface, "ChildCount"),
             [&health](GVariant* reply, const GError*) {
               const VariantPtr value = property_value(reply);
               if (value && g_variant_is_of_type(value.get(), G_VARIANT_TYPE_INT32)) {
                 health.apps = g_variant_get_int32(value.get());
               }
             });
  scope.wait();
  return health;
}

Result<std::vector<AppInfo>> Observer::apps(Deadline deadline) {
  return list_apps(bus_, deadline, ListOptions{options_.per_app_budget, std::nullopt, std::nullopt});
}

Result<std::vector<AppInfo>> Observer::apps_named(const std::string& name, Deadline deadline) {
  if (auto allowed = check_observation_allowed(name); !allowed) {
    return std::move(allowed).take_error();
  }
  ListOptions list_options{options_.per_app_budget, std::nullopt, name};
  auto listed = list_apps(bus_, deadline, list_options);
  if (!listed) return std::move(listed).take_error();
  std::vector<AppInfo> all = std::move(listed).value();

  // A named app that was slow gets the rest of the deadline; so does an app of unknown
  // name when no app matched, since it may be the one asked for.
  const bool any_match = std::any_of(all.begin(), all.end(), [&](const AppInfo& app) {
    return app_name_matches(app.name, name);
  });
  std::vector<std::string> retry;
  for (const AppInfo& app : all) {
    if (!app.responsive && (app_name_matches(app.name, name) || (!any_match && app.name.empty()))) {
      retry.push_back(app.bus_name);
    }
  }
  if (!retry.empty() && remaining(deadline).count() > 0) {
    auto again = list_apps(bus_, deadline, ListOptions{remaining(deadline), retry, name});
    if (again) {
      // A retried app the second listing no longer has left the bus meanwhile: it must not
      // stay behind as "did not answer", which would tell the caller to wait for it.
      std::erase_if(all, [&](const AppInfo& app) {
        return std::find(retry.begin(), retry.end(), app.bus_name) != retry.end() &&
               std::none_of(again->begin(), again->end(),
                            [&](const AppInfo& fresh) { return fresh.bus_name == app.bus_name; });
      });
      for (AppInfo& fresh : *again) {
        for (AppInfo& app : all) {
          if (app.bus_name == fresh.bus_name) app = std::move(fresh);
        }
      }
    }
  }
  auto selected = select_apps(all, name);
  if (!selected) {
    const auto unknown = std::find_if(all.begin(), all.end(), [](const AppInfo& app) {
      return !app.responsive && app.name.empty();
    });
    if (selected.error().code == ErrorCode::kAppNotFound && unknown != all.end()) {
      return make_error(ErrorCode::kAppUnresponsive,
                        "no answering app is named " + name + ", and an app did not answer",
                        {{"app", name}, {"bus_name", unknown->bus_name}},
                        "the app may be busy or stopped; try again later", Retry::kSafe);
    }
    if (selected.error().code == ErrorCode::kAppNotFound) {
      // The listing skipped apps known by other names; name them all in the error.
      if (auto everyone = apps(deadline)) {
        auto again = select_apps(*everyone, name);
        if (!again) return std::move(again).take_error();
        // The app appeared between the two listings: answer with it.
        std::vector<AppInfo> found;
        for (const AppInfo* app : *again) found.push_back(*app);
        return found;
      }
    }
    return std::move(selected).take_error();
  }
  std::vector<AppInfo> result;
  for (const AppInfo* app : *selected) result.push_back(*app);
  return result;
}

Result<std::vector<WindowInfo>> Observer::windows(const std::optional<std::string>& app,
                                                  Deadline deadline, std::size_t* not_listed) {
  std::vector<WindowInfo> result;
  std::size_t unlisted = 0;
  if (!app) {
    auto all = apps(deadline);
    if (!all) return std::move(all).take_error();
    for (const AppInfo& info : *all) {
      result.insert(result.end(), info.windows.begin(), info.windows.end());
      unlisted += info.windows_not_listed;
    }
  } else {
    auto named = apps_named(*app, deadline);
    if (!named) return std::move(named).take_error();
    for (const AppInfo& info : *named) {
      if (!info.responsive) {
        return make_error(ErrorCode::kAppUnresponsive, "app " + info.name + " did not answer",
                          {{"app", info.name}, {"bus_name", info.bus_name}},
                          "the app may be busy or stopped; try again later", Retry::kSafe);
      }
      result.insert(result.end(), info.windows.begin(), info.windows.end());
      unlisted += info.windows_not_listed;
    }
  }
  if (not_listed != nullptr) *not_listed = unlisted;
  return result;
}

Result<std::shared_ptr<const Snapshot>> Observer::snapshot(const WindowQuery& query,
                                                           Deadline deadline) {
  // A window named by a known id is read at once: listing the desktop first costs several
  // round trips through the bus. Anything unexpected (the window gone or hidden, the app
  // gone) falls back to the listing, which says precisely what is wrong.
  if (query.window_id) {
    auto known = bus_.known_window(*query.window_id);
    if (known && app_name_matches(known->app_name, query.app) &&
        check_observation_allowed(known->app_name)) {
      auto read = read_window(bus_, *known, deadline, options_.snapshot);
      if (read && is_listed_window(read->nodes.front().states)) {
        refresh_window(*read);
        return keep(std::move(read).value());
      }
      if (!read && read.error().code == ErrorCode::kAppUnresponsive) {
        return std::move(read).take_error();
      }
    }
  }
  auto window = one_window(query, deadline);
  if (!window) return std::move(window).take_error();
  auto read = read_window(bus_, *window, deadline, options_.snapshot);
  if (!read) return std::move(read).take_error();
  return keep(std::move(read).value());
}

Result<std::shared_ptr<const Snapshot>> Observer::snapshot_within(const WindowQuery& query,
                                                                  std::string_view ref, Deadline deadline) {
  auto parsed = parse_ref(ref);
  if (!parsed) return std::move(parsed).take_error();
  auto stored = store_.lookup(*parsed);
  if (!stored) return std::move(stored).take_error();
  const WindowInfo& window = stored->snapshot->window;
  if (!app_name_matches(window.app_name, query.app) ||
      (query.window_id && *query.window_id != window.id) || (query.title && *query.title != window.title)) {
    return make_error(ErrorCode::kInvalidArgs,
                      "the ref is an element of " + window.app_name + "'s window \"" + window.title +
                          "\", not of the window asked for",
                      {{"param", "within"}, {"ref", std::string(ref)}, {"app", window.app_name},
                       {"window", window.id}},
                      "give the app (and window) the ref was read from");
  }
  auto resolved = resolve(ref, deadline);
  if (!resolved) return std::move(resolved).take_error();
  SnapshotOptions part = options_.snapshot;
  part.root_path = resolved->path;
  auto read = read_window(bus_, window, deadline, part);
  if (!read) {
    if (read.error().code == ErrorCode::kStaleRef) {
      return stale("the ref's element went away while it was read", std::string(ref), "element_gone");
    }
    return std::move(read).take_error();
  }
  read->within = std::string(ref);
  return keep(std::move(read).value());
}

// The one window the query names, from a fresh listing of its app.
Result<WindowInfo> Observer::one_window(const WindowQuery& query, Deadline deadline) {
  auto named = apps_named(query.app, deadline);
  if (!named) return std::move(named).take_error();
  std::vector<const AppInfo*> candidates;
  for (const AppInfo& app : *named) candidates.push_back(&app);
  return select_window(candidates, query);
}

// The window the query names, or every window of its app when it names none.
Result<std::vector<WindowInfo>> Observer::target_windows(const WindowQuery& query, Deadline deadline) {
  if (!query.window_id && !query.title) return windows(query.app, deadline);
  auto window = one_window(query, deadline);
  if (!window) return std::move(window).take_error();
  return std::vector<WindowInfo>{std::move(window).value()};
}

std::shared_ptr<const Snapshot> Observer::keep(Snapshot read) {
  auto taken = std::make_shared<Snapshot>(std::move(read));
  taken->id = store_.next_id();
  store_.put(taken);
  return taken;
}

Result<std::vector<FoundElement>> Observer::find(const FindQuery& query, Deadline deadline) {
  auto targets = target_windows(query.target, deadline);
  if (!targets) return std::move(targets).take_error();
  SnapshotOptions snapshot_options = options_.snapshot;
  if (query.accessible_id) snapshot_options.accessible_ids = AccessibleIds::kAll;
  BulkReads bulk_reads;  // the app's windows share its one GetItems answer
  snapshot_options.bulk_reads = &bulk_reads;
  const bool any_criterion = query.role || query.name || query.accessible_id;
  std::size_t matched_no_table = 0;  // with a cell: matches without rows and columns
  std::vector<FoundElement> found;
  for (const WindowInfo& window : *targets) {
    auto read = read_window(bus_, window, deadline, snapshot_options);
    if (!read) return std::move(read).take_error();
    Snapshot tree = std::move(read).value();
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
      const Node& node = tree.nodes[i];
      if (any_criterion && !matches(node, query)) continue;
      if (query.cell && (node.interfaces & kInterfaceTable) == 0) {
        if (any_criterion) ++matched_no_table;
        continue;
      }
      hits.push_back(i);
    }
    if (query.cell) {
      auto cells = add_cells_at(bus_, tree, hits, *query.cell, deadline);
      if (!cells) return std::move(cells).take_error();
      hits = std::move(cells).value();
    }
    auto taken = keep(std::move(tree));
    for (std::size_t i : hits) {
      const Node& node = taken->nodes[i];
      found.push_back({format_ref(taken->id, node.ref), taken, &node});
    }
  }
  if (query.cell && found.empty() && matched_no_table > 0) {
    return make_error(ErrorCode::kInvalidArgs,
                      "cell needs a table: " + std::to_string(matched_no_table) +
                          (matched_no_table == 1 ? " element matches" : " elements match") +
                          ", none with rows and columns",
                      {{"param", "cell"}, {"matched", matched_no_table}},
                      "name the table itself (its line in a snapshot says what it shows)");
  }
  return found;
}

std::vector<OpenSurface> of_kind(std::vector<OpenSurface> open, std::optional<SurfaceKind> kind) {
  if (kind) std::erase_if(open, [&](const OpenSurface& s) { return s.surface.kind != *kind; });
  return open;
}

Result<std::vector<OpenSurface>> Observer::surfaces(const WindowQuery& query, Deadline deadline) {
  auto targets = target_windows(query, deadline);
  if (!targets) return std::move(targets).take_error();
  std::vector<OpenSurface> found;
  for (const WindowInfo& window : *targets) {
    auto open = surfaces_in(window, deadline);
    if (!open) {
      if (open.error().code == ErrorCode::kWindowNotFound) continue;  // a popup closed meanwhile
      return std::move(open).take_error();
    }
    found.insert(found.end(), open->begin(), open->end());
  }
  return found;
}

Result<std::vector<OpenSurface>> Observer::surfaces_in(const WindowInfo& window, Deadline deadline) {
  auto read = read_window(bus_, window, deadline, options_.snapshot);
  if (!read) return std::move(read).take_error();
  auto taken = keep(std::move(read).value());
  std::vector<OpenSurface> found;
  for (const Surface& surface : open_surfaces(*taken)) found.push_back({taken, surface});
  return found;
}

Result<ResolvedElement> Observer::resolve(std::string_view ref_text, Deadline deadline) {
  const auto started = std::chrono::steady_clock::now();
  auto ref = parse_ref(ref_text);
  if (!ref) return std::move(ref).take_error();
  auto stored = store_.lookup(*ref);
  if (!stored) return std::move(stored).take_error();
  const Snapshot& saved = *stored->snapshot;
  const std::string ref_string(ref_text);
  if (auto allowed = check_observation_allowed(saved.app_name); !allowed) {
    return std::move(allowed).take_error();
  }

  // Structure only (names, roles, states are live in a bulk reply; missing children are
  // walked), then the accessible ids of the few nodes that could match.
  SnapshotOptions structure = options_.snapshot;
  structure.details_enabled = false;
  auto live = read_window(bus_, saved.window, deadline, structure);
  if (!live) {
    if (live.error().code == ErrorCode::kWindowNotFound ||
        live.error().code == ErrorCode::kAppNotFound) {
      return stale("the ref's window is gone", ref_string, "window_gone");
    }
    return std::move(live).take_error();
  }
  std::vector<Node*> candidates;
  for (Node& node : live->nodes) {
    if (node.role == stored->identity.role && node.name == stored->identity.name &&
        node.description == stored->identity.description) {
      candidates.push_back(&node);
    }
  }
  if (!candidates.empty()) {
    auto pipeline = app_pipeline(bus_, saved.bus_name, deadline);
    if (!pipeline) return std::move(pipeline).take_error();
    for (Node* node : candidates) {
      if (node->accessible_id_known) continue;  // read live already
      pipeline->call(node->path.c_str(), kPropertiesInterface, "Get",
                     [node](sd_bus_message* reply) {
                       if (error_name(reply) != nullptr) return;
                       node->accessible_id = read_variant_string(reply).value_or(std::string());
                       node->accessible_id_known = true;
                     },
                     "ss", kAccessibleInterface, "AccessibleId");
    }
    if (!pipeline->wait()) {
      if (pipeline->disconnected()) {
        return stale("the ref's window is gone", ref_string, "window_gone");
      }
      return app_unresponsive(saved.app_name, saved.bus_name, started, "resolving a ref");
    }
    std::erase_if(candidates, [&](const Node* node) {
      return !matches_identity(stored->identity, *node);
    });
  }
  if (candidates.empty()) {
    return stale("no element of the window has the ref's identity any more", ref_string,
                 "saved_ref_absent");
  }
  if (candidates.size() > 1) {
    return make_error(ErrorCode::kAmbiguousTarget,
                      std::to_string(candidates.size()) + " elements of the window have the ref's identity",
                      {{"ref", ref_string}, {"kind", "identity_not_unique"},
                       {"count", candidates.size()}},
                      "take a new snapshot: twins are marked there; pick an element with a "
                      "unique name or id");
  }
  return ResolvedElement{*stored, saved.bus_name, candidates.front()->path};
}

Result<ElementDetails> Observer::get(std::string_view ref, Deadline deadline) {
  const auto started = std::chrono::steady_clock::now();
  auto resolved = resolve(ref, deadline);
  if (!resolved) return std::move(resolved).take_error();
  const Snapshot& saved = *resolved->stored.snapshot;

  auto opened = bus_.app_pipeline(resolved->bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  const AppChannel* channel = &opened->app;
  Pipeline* pipeline = &opened->pipeline;
  std::optional<LiveNode> live;
  read_node_live(*pipeline, resolved->path, channel->traits(),
                 [&live](std::optional<LiveNode> node) { live = std::move(node); },
                 options_.snapshot.max_nodes);
  // The window's title as it is now (a page sets it from JavaScript), not as the snapshot saw it.
  std::optional<std::string> live_title;
  pipeline->call(saved.window.path.c_str(), kPropertiesInterface, "Get",
                 [&live_title](sd_bus_message* reply) {
                   if (error_name(reply) == nullptr) live_title = read_variant_string(reply);
                 },
                 "ss", kAccessibleInterface, "Name");
  if (!pipeline->wait() && !pipeline->disconnected()) {
    return app_unresponsive(saved.app_name, saved.bus_name, started, "reading an element");
  }
  if (!live) return stale("the element is gone", std::string(ref), "saved_ref_absent");

  ElementDetails details;
  details.ref = std::string(ref);
  details.window = saved.window;
  if (live_title) details.window.title = std::move(*live_title);
  std::vector<Node> read(1);
  read.reserve(2);
  Node& node = read.front();
  node.ref = resolved->stored.node->ref;
  node.role = live->node.role;
  node.name = name_as_shown(channel->traits(), live->node.role, live->node.name);
  node.description = live->node.description;
  node.accessible_id = live->node.accessible_id.value_or(std::string());
  node.accessible_id_known = live->node.accessible_id.has_value();
  node.states = live->node.states;
  node.interfaces = live->node.interfaces;
  node.path = resolved->path;
  DetailOptions detail_options = options_.snapshot.details;
  detail_options.accessible_id = false;
  detail_options.text_values = TextValues::kAll;
  // Value and Text both present (a spin button): value is the number, text read apart.
  const bool separate_text = (node.interfaces & kInterfaceText) &&
                             (node.interfaces & kInterfaceValue) && !is_password_role(node.role);
  if (separate_text) {
    Node& text_only = read.emplace_back();
    text_only.path = node.path;
    text_only.role = node.role;
    text_only.states = node.states;
    text_only.interfaces = kInterfaceText;
  }
  if (!read_details(*pipeline, read, detail_options, channel->traits())) {
    if (pipeline->disconnected()) {
      return stale("the element is gone", std::string(ref), "saved_ref_absent");
    }
    return app_unresponsive(saved.app_name, saved.bus_name, started, "reading an element");
  }
  details.node = std::move(read.front());
  if (separate_text) {
    details.text = read.back().value;
  } else if ((details.node.interfaces & kInterfaceText) && !is_password_role(details.node.role)) {
    details.text = details.node.value;
  }
  return details;
}

}  // namespace companyos::a11y
