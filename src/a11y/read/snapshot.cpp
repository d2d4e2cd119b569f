#include "a11y/read/snapshot.h"
#include "a11y/toolkit/traits.h"

#include <unordered_map>
#include <unordered_set>

#include "a11y/bus/message_fields.h"
#include "a11y/read/embedded_objects.h"
#include "a11y/read/identity.h"
#include "a11y/read/live_read.h"
#include "a11y/read/tree_builder.h"

namespace companyos::a11y {
namespace {

constexpr const char* kCachePath = "/org/a11y/atspi/cache";
// Re-check rounds after live reads: the app may still be adding children meanwhile.
constexpr int kReconcileRounds = 4;

enum class BulkOutcome { kRead, kUnsupported, kUnanswered };

class WindowReader {
 public:
  WindowReader(Pipeline& pipeline, const WindowInfo& window, ToolkitTraits toolkit)
      : pipeline_(pipeline), window_(window), toolkit_(toolkit) {}

  BulkOutcome read_bulk(SnapshotStats& stats) {
    // No reply at all means the deadline passed; an error reply (a bridge without a cache,
    // or GTK3's before its cache exists) means the live walk must do.
    BulkOutcome outcome = BulkOutcome::kUnanswered;
    std::vector<RawNode> items;
    pipeline_.call(kCachePath, "org.a11y.atspi.Cache", "GetItems", [&](sd_bus_message* reply) {
      if (error_name(reply) != nullptr) {
        outcome = BulkOutcome::kUnsupported;
        return;
      }
      auto parsed = read_get_items(reply);
      if (!parsed) {
        outcome = BulkOutcome::kUnsupported;
        return;
      }
      items = std::move(parsed).value();
      outcome = BulkOutcome::kRead;
    });
    pipeline_.wait();
    stats.bulk_items = items.size();
    builder_.add_all(std::move(items));
    return outcome;
  }

  // Reads live what the bulk read may lack, until the tree under the window is consistent:
  // every node's children listed and every listed child known.
  void reconcile(SnapshotStats& stats) {
    for (int round = 0; round < kReconcileRounds && !pipeline_.expired(); ++round) {
      bool started = false;
      if (!builder_.has(window_.path)) {
        walk(window_.path);
        started = true;
      }
      MissingParts missing = builder_.missing(window_.path);
      for (const std::string& path : missing.reread) {
        ++stats.reconciled;
        started = true;
        read_children_live(pipeline_, path,
                           [this, path](std::optional<std::vector<std::string>> children) {
                             if (!children) return;
                             on_children(path, std::move(*children));
                           });
      }
      for (const std::string& path : missing.unknown) {
        walk(path);
        started = true;
      }
      if (!started) return;
      if (!pipeline_.wait()) return;
    }
  }

  std::size_t walked() const { return walked_; }
  std::size_t children_unread() const { return children_unread_; }
  const TreeBuilder& builder() const { return builder_; }

 private:
  void on_children(const std::string& parent, std::vector<std::string> children) {
    for (const std::string& child : children) {
      if (!builder_.has(child)) walk(child);
    }
    builder_.set_live_children(parent, std::move(children));
  }

  // Reads one node live and, as soon as its children are known, the unknown ones: the walk
  // is pipelined, never waiting for a whole level.
  void walk(const std::string& path) {
    if (!requested_.insert(path).second) return;
    ++walked_;
    read_node_live(pipeline_, path, toolkit_, [this](std::optional<LiveNode> live) {
      if (!live) return;
      const std::string read_path = live->node.path;
      live->node.child_count = static_cast<int>(live->children.size());
      if (live->children_unread) ++children_unread_;
      std::vector<std::string> children = std::move(live->children);
      builder_.add(std::move(live->node));
      on_children(read_path, std::move(children));
    });
  }

  Pipeline& pipeline_;
  const WindowInfo& window_;
  ToolkitTraits toolkit_;
  TreeBuilder builder_;
  std::unordered_set<std::string> requested_;
  std::size_t walked_ = 0;
  std::size_t children_unread_ = 0;
};

// Whether each node needs its AccessibleId read under the given policy.
std::vector<bool> accessible_id_wanted(const std::vector<Node>& nodes, AccessibleIds policy) {
  std::vector<bool> wanted(nodes.size(), policy == AccessibleIds::kAll);
  if (policy != AccessibleIds::kWhereIdentityNeedsThem) return wanted;
  std::unordered_map<std::string, std::vector<std::size_t>> by_rest_of_identity;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::string key = std::to_string(nodes[i].role);
    key.push_back('\0');
    key += nodes[i].name;
    key.push_back('\0');
    key += nodes[i].description;
    by_rest_of_identity[std::move(key)].push_back(i);
  }
  for (const auto& [key, members] : by_rest_of_identity) {
    if (members.size() < 2) continue;
    for (std::size_t i : members) wanted[i] = true;
  }
  return wanted;
}

// Why a read stopped short: the app went away, or it did not answer in time.
Error read_failed(Bus& bus, const AppChannel& app, const WindowInfo& window,
                  const Pipeline& pipeline, std::chrono::steady_clock::time_point started,
                  std::string_view while_doing) {
  if (!pipeline.disconnected()) {
    return app_unresponsive(window.app_name, window.bus_name, started, while_doing);
  }
  if (!app.peer_to_peer) {
    return make_error(ErrorCode::kBusUnavailable, "the accessibility bus connection closed",
                      {{"while", std::string(while_doing)}}, "try again");
  }
  bus.forget_app(window.bus_name);
  return make_error(ErrorCode::kAppNotFound, "the app closed its connection",
                    {{"app", window.app_name}, {"bus_name", window.bus_name},
                     {"while", std::string(while_doing)}},
                    "list apps again");
}

}  // namespace

Result<Snapshot> read_window(Bus& bus, const WindowInfo& window, Deadline deadline,
                             const SnapshotOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  auto app = [&] {
    CallScope scope(deadline);
    return bus.app_channel(scope, window.bus_name);
  }();
  if (!app) return std::move(app).take_error();
  auto pipeline = bus.pipeline(*app, deadline);
  if (!pipeline) return std::move(pipeline).take_error();

  Snapshot snapshot;
  snapshot.window = window;
  snapshot.app_name = window.app_name;
  snapshot.bus_name = window.bus_name;
  snapshot.pid = window.pid;
  snapshot.showing_means_on_screen = app->traits().showing_means_on_screen;
  SnapshotStats& stats = snapshot.stats;
  stats.peer_to_peer = app->peer_to_peer;

  WindowReader reader(*pipeline, window, app->traits());
  if (options.use_bulk) {
    const BulkOutcome outcome = reader.read_bulk(stats);
    if (outcome == BulkOutcome::kUnanswered) {
      return read_failed(bus, *app, window, *pipeline, started, "reading the tree");
    }
    stats.bulk = outcome == BulkOutcome::kRead;
  }
  reader.reconcile(stats);
  stats.walked_live = reader.walked();
  stats.children_unread = reader.children_unread();
  if (pipeline->expired() || pipeline->disconnected()) {
    return read_failed(bus, *app, window, *pipeline, started, "reconciling the tree");
  }
  const auto assembled = reader.builder().assemble(window.path, options.max_nodes);
  if (assembled.empty()) {
    return make_error(ErrorCode::kWindowNotFound, "the window is gone",
                      {{"window", window.id}, {"title", window.title}},
                      "list windows again and pick a current one");
  }
  snapshot.nodes = to_nodes(assembled);
  for (Node& node : snapshot.nodes) node.name = name_as_shown(app->traits(), node.role, std::move(node.name));
  stats.truncated = assembled.size() >= options.max_nodes;

  if (options.details_enabled) {
    const std::size_t before = pipeline->calls_started();
    auto wanted = accessible_id_wanted(snapshot.nodes, options.accessible_ids);
    // Nodes read live already carry their accessible id.
    for (std::size_t i = 0; i < snapshot.nodes.size(); ++i) {
      if (snapshot.nodes[i].accessible_id_known) wanted[i] = false;
    }
    const bool complete =
        read_details(*pipeline, snapshot.nodes, options.details, app->traits(), wanted);
    stats.detail_calls = pipeline->calls_started() - before;
    if (!complete) return read_failed(bus, *app, window, *pipeline, started, "reading details");
    resolve_embedded_objects(snapshot.nodes);
  }
  mark_twins(snapshot.nodes);
  stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return snapshot;
}

}  // namespace companyos::a11y
