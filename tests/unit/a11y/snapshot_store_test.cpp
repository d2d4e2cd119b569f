#include "a11y/snapshot_store.h"

#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

std::shared_ptr<Snapshot> snapshot_for(SnapshotStore& store, const std::string& window) {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->id = store.next_id();
  snapshot->window.id = window;
  snapshot->nodes = testing::editor_nodes();
  return snapshot;
}

TEST(SnapshotStore, IdsAreShortUniqueAndValid) {
  SnapshotStore store;
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = store.next_id();
    EXPECT_TRUE(is_valid_snapshot_id(id)) << id;
    EXPECT_LE(id.size(), 8u);
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 1000u);
}

TEST(SnapshotStore, LooksUpElementsWithTheirIdentity) {
  SnapshotStore store;
  auto snapshot = snapshot_for(store, "w1");
  store.put(snapshot);
  auto found = store.lookup({snapshot->id, 5});
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->node->name, "Save");
  EXPECT_EQ(found->identity.name, "Save");
  EXPECT_EQ(found->node->path, "/n5");
  EXPECT_EQ(found->snapshot, snapshot);
}

TEST(SnapshotStore, UnknownRefsAreStale) {
  SnapshotStore store;
  auto snapshot = snapshot_for(store, "w1");
  store.put(snapshot);
  struct Case {
    ElementRef ref;
    const char* kind;
  };
  const Case cases[] = {
      {{"nope", 1}, "snapshot_unknown"},
      {{snapshot->id, 0}, "element_unknown"},
      {{snapshot->id, 9}, "element_unknown"},
  };
  for (const Case& c : cases) {
    auto found = store.lookup(c.ref);
    ASSERT_FALSE(found.ok());
    EXPECT_EQ(found.error().code, ErrorCode::kStaleRef);
    EXPECT_EQ(found.error().details["kind"], c.kind);
  }
}

TEST(SnapshotStore, EvictsPerWindowAndOverall) {
  SnapshotStore store(2, 3);
  auto a1 = snapshot_for(store, "a");
  auto a2 = snapshot_for(store, "a");
  auto a3 = snapshot_for(store, "a");
  store.put(a1);
  store.put(a2);
  store.put(a3);
  EXPECT_EQ(store.get(a1->id), nullptr);  // third of window a pushed out the first
  EXPECT_NE(store.get(a2->id), nullptr);
  auto b1 = snapshot_for(store, "b");
  auto c1 = snapshot_for(store, "c");
  store.put(b1);
  store.put(c1);
  EXPECT_EQ(store.size(), 3u);
  EXPECT_EQ(store.get(a2->id), nullptr);  // oldest overall
  EXPECT_NE(store.get(a3->id), nullptr);
  EXPECT_NE(store.get(c1->id), nullptr);
}

TEST(SnapshotStore, ListsWhatItKeepsOldestFirst) {
  SnapshotStore store(1, 3);
  EXPECT_TRUE(store.list().empty());
  auto a1 = snapshot_for(store, "a");
  auto b1 = snapshot_for(store, "b");
  auto a2 = snapshot_for(store, "a");
  store.put(a1);
  store.put(b1);
  store.put(a2);  // evicts a1: one per window
  const auto listed = store.list();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0], b1);
  EXPECT_EQ(listed[1], a2);
}

TEST(SnapshotStore, SafeFromSeveralThreads) {
  SnapshotStore store(8, 32);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&store, t] {
      for (int i = 0; i < 200; ++i) {
        auto snapshot = snapshot_for(store, "w" + std::to_string(t));
        store.put(snapshot);
        (void)store.lookup({snapshot->id, 1});
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(store.size(), 32u);
}

}  // namespace
}  // namespace companyos::a11y
