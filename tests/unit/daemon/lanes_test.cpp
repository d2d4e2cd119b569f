// The worker pool's lanes: one app's requests hold at most `limit` workers; the rest wait
// their turn in order; requests in no lane are never held back.
#include "daemon/server/lanes.h"

#include <gtest/gtest.h>

#include <memory>

#include "a11y/snapshot_store.h"
#include "daemon/methods/observation.h"

namespace companyos::daemon {
namespace {

TEST(Lanes, AHungAppHoldsAtMostItsShare) {
  Lanes<int> lanes(2);
  // Ten requests to one app: two start, eight wait.
  int started = 0;
  for (int i = 0; i < 10; ++i) {
    if (lanes.admit("app:hung", i)) ++started;
  }
  EXPECT_EQ(started, 2);
  EXPECT_EQ(lanes.running("app:hung"), 2u);
  EXPECT_EQ(lanes.waiting("app:hung"), 8u);
  // Another app and lane-less work start at once, whatever the hung app holds.
  EXPECT_EQ(lanes.admit("app:healthy", 100), 100);
  EXPECT_EQ(lanes.admit("", 200), 200);
  EXPECT_EQ(lanes.admit("", 201), 201);
  EXPECT_EQ(lanes.finish(""), std::nullopt);
}

TEST(Lanes, TheNextOfALaneStartsInOrderAsOneEnds) {
  Lanes<int> lanes(1);
  EXPECT_EQ(lanes.admit("app:a", 1), 1);
  EXPECT_EQ(lanes.admit("app:a", 2), std::nullopt);
  EXPECT_EQ(lanes.admit("app:a", 3), std::nullopt);
  EXPECT_EQ(lanes.finish("app:a"), 2);
  EXPECT_EQ(lanes.running("app:a"), 1u);
  EXPECT_EQ(lanes.finish("app:a"), 3);
  EXPECT_EQ(lanes.finish("app:a"), std::nullopt);
  EXPECT_EQ(lanes.running("app:a"), 0u);
  // An idle lane starts afresh.
  EXPECT_EQ(lanes.admit("app:a", 4), 4);
  EXPECT_EQ(lanes.finish("app:unknown"), std::nullopt);
}

TEST(Lanes, TakesWhatWaitsWhenALaneIsGivenUp) {
  Lanes<int> lanes(1);
  EXPECT_EQ(lanes.admit("app:hung", 1), 1);
  EXPECT_EQ(lanes.admit("app:hung", 2), std::nullopt);
  EXPECT_EQ(lanes.admit("app:hung", 3), std::nullopt);
  EXPECT_EQ(lanes.take_waiting("app:hung"), (std::deque<int>{2, 3}));
  EXPECT_EQ(lanes.waiting("app:hung"), 0u);
  EXPECT_EQ(lanes.running("app:hung"), 1u);
  EXPECT_EQ(lanes.finish("app:hung"), std::nullopt);
  EXPECT_TRUE(lanes.take_waiting("app:none").empty());
}

TEST(Lanes, HoldsMoveOnlyItems) {
  Lanes<std::unique_ptr<int>> lanes(1);
  ASSERT_TRUE(lanes.admit("app:a", std::make_unique<int>(1)));
  EXPECT_FALSE(lanes.admit("app:a", std::make_unique<int>(2)));
  auto next = lanes.finish("app:a");
  ASSERT_TRUE(next && *next);
  EXPECT_EQ(**next, 2);
}

TEST(LaneOf, NamesTheAppOfARequest) {
  a11y::SnapshotStore store;
  auto snapshot = std::make_shared<a11y::Snapshot>();
  snapshot->id = "k2";
  snapshot->app_name = "Mousepad";
  snapshot->window.id = "w1";
  store.put(snapshot);
  using nlohmann::json;
  EXPECT_EQ(methods::lane_of(json{{"app", "GEdit"}}, store), "app:gedit");
  EXPECT_EQ(methods::lane_of(json{{"ref", "@k2:e3"}}, store), "app:mousepad");
  EXPECT_EQ(methods::lane_of(json{{"ref", "e3"}, {"snapshot", "k2"}}, store), "app:mousepad");
  EXPECT_EQ(methods::lane_of(json{{"ref", "@zz:e3"}}, store), "");  // an unknown snapshot: no lane
  EXPECT_EQ(methods::lane_of(json::object(), store), "");
  EXPECT_EQ(methods::lane_of(json{{"app", 3}}, store), "");
}

}  // namespace
}  // namespace companyos::daemon
