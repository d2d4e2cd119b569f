#include "a11y/snapshot.h"

#include <unordered_map>
#include <unordered_set>

#include "a11y/bulk_reply.h"
#include "a11y/identity.h"
#include "a11y/live_read.h"
#include "a11y/tree_builder.h"

namespace companyos::a11y {
namespace {

constexpr const char* kCachePath = "/org/a11y/atspi/cache";
// Re-check rounds after live reads: the app may still be adding children meanwhile.
constexpr int kReconcileRounds = 4;

enum class BulkOutcome { kRead, kUnsupported, kUnanswered };

class WindowReader {
 public:
  WindowReader(CallScope& scope, Channel channel, const WindowInfo& window)
      : scope_(scope), channel_(std::move(channel)), window_(window) {}

  BulkOutcome read_bulk(SnapshotStats& stats) {
    BulkOutcome outcome = BulkOutcome::kUnanswered;
    std::vector<RawNode> items;
    scope_.call(channel_, kCachePath, "org.a11y.atspi.Cache", "GetItems", nullptr,
                [&](GVariant* reply, const GError* error) {
                  if (reply == nullptr) {
                    outcome = is_cancelled(error) ? BulkOutcome::kUnanswered
                                                  : BulkOutcome::kUnsupported;
                    return;
                  }
                  auto parsed = parse_get_items(reply);
                  if (!parsed) {
                    outcome = BulkOutcome::kUnsupported;
                    return;
                  }
                  items = std::move(parsed).value();
                  outcome = BulkOutcome::kRead;
                });
    scope_.wait();
    stats.bulk_items = items.size();
    builder_.add_all(std::move(items));
    return outcome;
  }

  // Reads live what the bulk read may lack, until the tree under the window is consistent:
  // every node's children listed and every listed child known.
  void reconcile(SnapshotStats& stats) {
    for (int round = 0; round < kReconcileRounds && !scope_.expired(); ++round) {
      bool started = false;
      if (!builder_.has(window_.path)) {
        walk(window_.path);
        started = true;
      }
      for (const std::string& path : builder_.needs_children_reread(window_.path)) {
        ++stats.reconciled;
        started = true;
        read_children_live(scope_, channel_, path,
                           [this, path](std::optional<std::vector<std::string>> children) {
                             if (!children) return;
                             on_children(path, std::move(*children));
                           });
      }
      for (const std::string& path : builder_.unknown_children(window_.path)) {
        walk(path);
        started = true;
      }
      if (!started) return;
      scope_.wait();
    }
  }

  std::size_t walked() const { return walked_; }
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
    read_node_live(scope_, channel_, path, [this](std::optional<LiveNode> live) {
      if (!live) return;
      const std::string read_path = live->node.path;
      live->node.child_count = static_cast<int>(live->children.size());
      std::vector<std::string> children = std::move(live->children);
      builder_.add(std::move(live->node));
      on_children(read_path, std::move(children));
    });
  }

  CallScope& scope_;
  Channel channel_;
  const WindowInfo& window_;
  TreeBuilder builder_;
  std::unordered_set<std::string> requested_;
  std::size_t walked_ = 0;
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

}  // namespace

Result<Snapshot> read_window(Bus& bus, const WindowInfo& window, Deadline deadline,
                             const SnapshotOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  CallScope scope(deadline);
  auto app = bus.app_channel(scope, window.bus_name);
  if (!app) return std::move(app).take_error();

  Snapshot snapshot;
  snapshot.window = window;
  snapshot.app_name = window.app_name;
  snapshot.bus_name = window.bus_name;
  snapshot.pid = window.pid;
  SnapshotStats& stats = snapshot.stats;
  stats.peer_to_peer = app->peer_to_peer;

  WindowReader reader(scope, app->channel, window);
  if (options.use_bulk) {
    const BulkOutcome outcome = reader.read_bulk(stats);
    if (outcome == BulkOutcome::kUnanswered) {
      return app_unresponsive(window.app_name, window.bus_name, started, "reading the tree");
    }
    stats.bulk = outcome == BulkOutcome::kRead;
  }
  reader.reconcile(stats);
  stats.walked_live = reader.walked();
  if (scope.expired()) {
    return app_unresponsive(window.app_name, window.bus_name, started, "reconciling the tree");
  }
  const auto assembled = reader.builder().assemble(window.path, options.max_nodes);
  if (assembled.empty()) {
    return make_error(ErrorCode::kWindowNotFound, "the window is gone",
                      {{"window", window.id}, {"title", window.title}},
                      "list windows again and pick a current one");
  }
  snapshot.nodes = to_nodes(assembled);
  stats.truncated = assembled.size() >= options.max_nodes;

  if (options.details_enabled) {
    const std::size_t before = scope.calls_started();
    const auto wanted = accessible_id_wanted(snapshot.nodes, options.accessible_ids);
    for (std::size_t i = 0; i < snapshot.nodes.size(); ++i) {
      Node& node = snapshot.nodes[i];
      DetailOptions node_options = options.details;
      // Nodes read live already carry their accessible id.
      node_options.accessible_id = wanted[i] && !node.accessible_id_known;
      fetch_details(scope, app->channel, node, node_options);
    }
    scope.wait();
    stats.detail_calls = scope.calls_started() - before;
    if (scope.expired()) {
      return app_unresponsive(window.app_name, window.bus_name, started, "reading details");
    }
  }
  mark_twins(snapshot.nodes);
  stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return snapshot;
}

}  // namespace companyos::a11y
