#include "a11y/read/snapshot.h"
#include "a11y/toolkit/traits.h"

#include <malloc.h>

#include <unordered_map>
#include <unordered_set>

#include "a11y/bus/message_fields.h"
#include "a11y/read/embedded_objects.h"
#include "a11y/read/identity.h"
#include "a11y/read/live_read.h"
#include "a11y/read/shown_region.h"
#include "a11y/read/tree_builder.h"

namespace companyos::a11y {
namespace {

constexpr const char* kCachePath = "/org/a11y/atspi/cache";
// Re-check rounds after live reads: the app may still be adding children meanwhile.
constexpr int kReconcileRounds = 4;
// GetItems lists the whole app, every window of it: records read per node a snapshot may
// hold. An app past that is read by the live walk, which the node budget bounds.
constexpr std::size_t kBulkItemsPerNode = 5;

enum class BulkOutcome { kRead, kUnsupported, kUnanswered };

class WindowReader {
 public:
  WindowReader(Pipeline& pipeline, std::string root, ToolkitTraits toolkit, std::size_t max_nodes,
               int max_depth, bool shown_cells, bool showing_only)
      : pipeline_(pipeline), root_(std::move(root)), toolkit_(toolkit), max_nodes_(max_nodes), max_depth_(max_depth),
        shown_cells_(shown_cells), showing_only_(showing_only) {}

  BulkOutcome read_bulk(SnapshotStats& stats, BulkReads* shared, const std::string& bus_name) {
    if (const AppBulkRead* kept = shared != nullptr ? shared->find(bus_name) : nullptr) {
      add_bulk(stats, kept->items);
      return kept->supported ? BulkOutcome::kRead : BulkOutcome::kUnsupported;
    }
    // No reply at all means the deadline passed; an error reply (a bridge without a cache,
    // or GTK3's before its cache exists) means the live walk must do.
    BulkOutcome outcome = BulkOutcome::kUnanswered;
    std::vector<RawNode> items;
    pipeline_.call(kCachePath, "org.a11y.atspi.Cache", "GetItems", [&](sd_bus_message* reply) {
      if (error_name(reply) != nullptr) {
        outcome = BulkOutcome::kUnsupported;
        return;
      }
      auto parsed = read_get_items(reply, kBulkItemsPerNode * max_nodes_);
      if (!parsed) {
        outcome = BulkOutcome::kUnsupported;
        return;
      }
      items = std::move(parsed).value();
      outcome = BulkOutcome::kRead;
    });
    pipeline_.wait();
    if (shared != nullptr && outcome != BulkOutcome::kUnanswered) {
      shared->keep(bus_name, AppBulkRead{outcome == BulkOutcome::kRead, items});
    }
    add_bulk(stats, std::move(items));
    return outcome;
  }

  // Reads live what the bulk read may lack, until the tree under the root is consistent:
  // every node's children listed and every listed child known.
  void reconcile(SnapshotStats& stats) {
    for (int round = 0; round < kReconcileRounds && !pipeline_.expired(); ++round) {
      bool started = false;
      if (!builder_.has(root_)) {
        walk(root_, 0);
        started = true;
      }
      MissingParts missing = builder_.missing(root_, max_nodes_, showing_only_);
      set_aside_ = missing.set_aside;
      for (const std::string& path : missing.reread) {
        ++stats.reconciled;
        started = true;
        const RawNode* node = builder_.find(path);
        read_children_live(pipeline_, path, node != nullptr ? node->interfaces : 0,
                           [this, path](std::optional<ChildrenRead> children) {
                             if (!children) return;
                             if (children->too_many) {
                               read_region(path, *children->too_many);
                               return;
                             }
                             on_children(path, std::move(children->paths));
                           },
                           max_nodes_);
      }
      for (const std::string& path : missing.unknown) {
        walk(path, depth_of(path));
        started = true;
      }
      if (!started) return;
      if (!pipeline_.wait()) return;
    }
  }

  std::size_t walked() const { return walked_; }
  bool truncated() const { return truncated_; }
  std::size_t children_unread() const { return children_unread_; }
  std::size_t regions_read() const { return regions_read_; }
  const TreeBuilder& builder() const { return builder_; }

 private:
  void add_bulk(SnapshotStats& stats, std::vector<RawNode> items) {
    if (items.size() >= kBulkItemsPerNode * max_nodes_) truncated_ = true;
    stats.bulk_items = items.size();
    builder_.add_all(std::move(items));
  }

  void on_children(const std::string& parent, std::vector<std::string> children) {
    // More children than a snapshot holds are never kept, let alone walked.
    if (children.size() > max_nodes_) {
      children.resize(max_nodes_);
      truncated_ = true;
    }
    const int depth = depth_of(parent) + 1;
    for (const std::string& child : children) {
      if (depths_.size() < max_nodes_) depths_.try_emplace(child, depth);
      if (!builder_.has(child)) walk(child, depth);
    }
    builder_.set_live_children(parent, std::move(children));
  }

  // The records that count against the node budget: those a bulk read listed under a
  // node whose listing was set aside (a browser's cache lists every row of a long table)
  // are no part of the tree.
  std::size_t tree_size() const { return builder_.size() - std::min(set_aside_, builder_.size()); }

  int depth_of(const std::string& path) const {
    auto found = depths_.find(path);
    return found == depths_.end() ? 0 : found->second;
  }

  // Reads one node live and, as soon as its children are known, the unknown ones: the walk
  // is pipelined, never waiting for a whole level. It stops at the node budget and the
  // depth cap, saying so (truncated).
  void walk(const std::string& path, int depth) {
    if (requested_.contains(path)) return;
    if (tree_size() + in_flight_ >= max_nodes_ || depth > max_depth_) {
      truncated_ = true;
      return;
    }
    requested_.insert(path);
    ++walked_;
    ++in_flight_;
    read_node_live(pipeline_, path, toolkit_, [this](std::optional<LiveNode> live) {
      --in_flight_;
      if (!live) return;
      const std::string read_path = live->node.path;
      if (live->too_many) {
        builder_.add(std::move(live->node));
        read_region(read_path, *live->too_many);
        return;
      }
      live->node.child_count = static_cast<int>(live->children.size());
      if (live->children_unread) ++children_unread_;
      std::vector<std::string> children = std::move(live->children);
      builder_.add(std::move(live->node));
      on_children(read_path, std::move(children));
    }, max_nodes_);
  }

  // A node with more children than a snapshot walks: what it shows on screen, within the
  // window (whose extents are read first), is what the snapshot holds of it.
  void read_region(const std::string& path, const TooManyChildren& size) {
    ++regions_read_;
    if (!shown_cells_) {
      builder_.set_shown(path, ShownRegion{size.rows, size.columns, 0, 0, 0, 0});
      builder_.set_live_children(path, {});
      return;
    }
    pipeline_.call(root_.c_str(), "org.a11y.atspi.Component", "GetExtents",
                   [this, path, size](sd_bus_message* reply) {
                     auto clip = error_name(reply) == nullptr ? read_extents(reply) : std::nullopt;
                     const std::size_t used = tree_size() + in_flight_;
                     const std::size_t budget = used < max_nodes_ ? max_nodes_ - used : 0;
                     read_shown_region(pipeline_, path, size, clip, budget,
                                       [this, path](ShownRead shown) { on_shown(path, std::move(shown)); });
                   },
                   "u", std::uint32_t{0});
  }

  void on_shown(const std::string& path, ShownRead shown) {
    builder_.set_shown(path, shown.region);
    std::vector<std::string> children;
    children.reserve(shown.children.size());
    for (ShownChild& child : shown.children) {
      if (child.cell && builder_.cells_known() < max_nodes_) builder_.set_cell(child.path, *child.cell);
      children.push_back(std::move(child.path));
    }
    on_children(path, std::move(children));
  }

  Pipeline& pipeline_;
  const std::string root_;  // the window's path, or the element's a partial read starts at
  ToolkitTraits toolkit_;
  TreeBuilder builder_;
  std::size_t max_nodes_;
  int max_depth_;
  bool shown_cells_;
  bool showing_only_;
  std::unordered_set<std::string> requested_;
  std::unordered_map<std::string, int> depths_;  // of walked nodes' children, by path
  std::size_t walked_ = 0;
  std::size_t in_flight_ = 0;  // walked, not answered yet: counted against the budget
  std::size_t children_unread_ = 0;
  std::size_t regions_read_ = 0;
  std::size_t set_aside_ = 0;  // bulk records under nodes read live instead (MissingParts)
  bool truncated_ = false;
};

// A read this large (or one cut short) hands its memory back to the system when it ends:
// glibc keeps freed memory in its arenas otherwise, and a daemon that once read a huge
// window would hold that much for good.
constexpr std::size_t kLargeRead = 5000;
struct GiveBackMemory {
  bool after_large_read = false;
  ~GiveBackMemory() {
    if (after_large_read) ::malloc_trim(0);
  }
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

// Why a read stopped short: the app went away, it answered nothing in time, or it answered
// but the window was more than the deadline allowed (a walk cut short by the deadline is
// not an app that did not answer).
Error read_failed(Bus& bus, const AppChannel& app, const WindowInfo& window,
                  const Pipeline& pipeline, std::chrono::steady_clock::time_point started,
                  std::string_view while_doing, std::size_t nodes_read) {
  if (!pipeline.disconnected() && pipeline.calls_answered() > 0) {
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    return make_error(ErrorCode::kTimeout,
                      "the window could not be read before the deadline: the app answered " +
                          std::to_string(pipeline.calls_answered()) + " calls (" + std::to_string(nodes_read) +
                          " nodes) in " + std::to_string(waited.count()) + " ms, which was not all of it",
                      {{"reason", "too_big_for_deadline"}, {"nodes_read", nodes_read},
                       {"calls_answered", pipeline.calls_answered()},
                       {"waited_ms", waited.count()}, {"while", std::string(while_doing)}},
                      "read less of it (--within a ref, --max-depth, --surface) or give it longer (--timeout)");
  }
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

const AppBulkRead* BulkReads::find(const std::string& bus_name) const {
  auto found = by_app_.find(bus_name);
  return found == by_app_.end() ? nullptr : &found->second;
}

void BulkReads::keep(const std::string& bus_name, AppBulkRead read) { by_app_[bus_name] = std::move(read); }

Result<Snapshot> read_window(Bus& bus, const WindowInfo& window, Deadline deadline,
                             const SnapshotOptions& options) {
  // Declared first, so it runs last: once the reader's records are freed.
  GiveBackMemory give_back;
  const auto started = std::chrono::steady_clock::now();
  auto opened = bus.app_pipeline(window.bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  const AppChannel* app = &opened->app;
  Pipeline* pipeline = &opened->pipeline;

  Snapshot snapshot;
  snapshot.window = window;
  snapshot.app_name = window.app_name;
  snapshot.bus_name = window.bus_name;
  snapshot.pid = window.pid;
  snapshot.showing_means_on_screen = app->traits().showing_means_on_screen;
  snapshot.actions_on_every_node = app->traits().actions_on_every_node;
  snapshot.enabled_state_marked = app->traits().enabled_state_marked;
  snapshot.frames_show_web_pages = app->traits().frames_show_web_pages;
  SnapshotStats& stats = snapshot.stats;
  stats.peer_to_peer = app->peer_to_peer;

  const std::string& root = options.root_path.empty() ? window.path : options.root_path;
  WindowReader reader(*pipeline, root, app->traits(), options.max_nodes, options.max_walk_depth, options.shown_cells,
                      options.showing_only);
  if (options.use_bulk) {
    const BulkOutcome outcome = reader.read_bulk(stats, options.bulk_reads, window.bus_name);
    stats.bulk_milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (outcome == BulkOutcome::kUnanswered) {
      return read_failed(bus, *app, window, *pipeline, started, "reading the tree", 0);
    }
    stats.bulk = outcome == BulkOutcome::kRead;
  }
  reader.reconcile(stats);
  give_back.after_large_read = reader.truncated() || reader.builder().size() > kLargeRead;
  stats.walked_live = reader.walked();
  stats.children_unread = reader.children_unread();
  stats.shown_regions = reader.regions_read();
  if (pipeline->expired() || pipeline->disconnected()) {
    return read_failed(bus, *app, window, *pipeline, started, "reconciling the tree", reader.builder().size());
  }
  const auto assembled = reader.builder().assemble(root, options.max_nodes);
  if (assembled.empty() && !options.root_path.empty()) {
    return make_error(ErrorCode::kStaleRef, "the element the read starts at is gone",
                      {{"kind", "element_gone"}, {"window", window.id}},
                      "take a new snapshot of the window and use its refs");
  }
  if (assembled.empty()) {
    return make_error(ErrorCode::kWindowNotFound, "the window is gone",
                      {{"window", window.id}, {"title", window.title}},
                      "list windows again and pick a current one");
  }
  snapshot.nodes = to_nodes(assembled);
  for (Node& node : snapshot.nodes) node.name = name_as_shown(app->traits(), node.role, std::move(node.name));
  stats.truncated = reader.truncated() || assembled.size() >= options.max_nodes;

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
    if (!complete) {
      return read_failed(bus, *app, window, *pipeline, started, "reading details", snapshot.nodes.size());
    }
    resolve_embedded_objects(snapshot.nodes);
  }
  mark_twins(snapshot.nodes);
  stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return snapshot;
}

}  // namespace companyos::a11y
