#include "a11y/bus/parked_connections.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

// A connection object that was never connected: enough to count what is kept.
SdBusPtr connection() {
  sd_bus* bus = nullptr;
  EXPECT_GE(sd_bus_new(&bus), 0);
  return SdBusPtr(bus);
}

TEST(ParkedConnections, KeepsAConnectionWhileAWindowOpenedSinceIsOpen) {
  struct SettleCase {
    const char* what;
    std::vector<std::string> then;
    std::vector<std::string> now;
    std::size_t kept;
  };
  const SettleCase cases[] = {
      {"a dialog opened since is still open", {"main"}, {"main", "dialog"}, 1},
      {"the dialog closed", {"main"}, {"main"}, 0},
      {"every window closed", {"main"}, {}, 0},
      {"a window the app had then closed too", {"main", "other"}, {"main"}, 0},
      {"a new window replaced the old one", {"main"}, {"replacement"}, 1},
      {"nothing was known then, a window is open now", {}, {"main"}, 1},
      {"order does not matter", {"b", "a"}, {"a", "b"}, 0},
  };
  for (const SettleCase& c : cases) {
    ParkedConnections parked;
    parked.park(":1.5", connection(), c.then);
    parked.settle(":1.5", c.now);
    EXPECT_EQ(parked.parked(":1.5"), c.kept) << c.what;
  }
}

TEST(ParkedConnections, SettlesOnlyTheAppListed) {
  ParkedConnections parked;
  parked.park(":1.5", connection(), {"main"});
  parked.park(":1.6", connection(), {"main"});
  parked.settle(":1.6", {"main"});
  EXPECT_EQ(parked.parked(":1.5"), 1U);
  EXPECT_EQ(parked.parked(":1.6"), 0U);
  parked.settle(":1.7", {});  // an app with nothing parked
  EXPECT_EQ(parked.parked(":1.7"), 0U);
}

TEST(ParkedConnections, SettlesEachConnectionByItsOwnWindows) {
  ParkedConnections parked;
  parked.park(":1.5", connection(), {"main"});            // opened the dialog
  parked.park(":1.5", connection(), {"main", "dialog"});  // a click inside it
  parked.settle(":1.5", {"main", "dialog"});
  EXPECT_EQ(parked.parked(":1.5"), 1U);
  parked.settle(":1.5", {"main"});
  EXPECT_EQ(parked.parked(":1.5"), 0U);
}

TEST(ParkedConnections, ClosesEverythingOfAnAppThatLeft) {
  ParkedConnections parked;
  parked.park(":1.5", connection(), {"main"});
  parked.park(":1.6", connection(), {"main"});
  parked.keep_only({":1.6"});
  EXPECT_EQ(parked.parked(":1.5"), 0U);
  EXPECT_EQ(parked.parked(":1.6"), 1U);
}

TEST(ParkedConnections, KeepsAtMostItsBoundPerAppAndIgnoresNoConnection) {
  ParkedConnections parked;
  for (std::size_t i = 0; i < ParkedConnections::kMaxPerApp + 3; ++i) {
    parked.park(":1.5", connection(), {"main"});
  }
  EXPECT_EQ(parked.parked(":1.5"), ParkedConnections::kMaxPerApp);
  parked.park(":1.9", nullptr, {});
  EXPECT_EQ(parked.parked(":1.9"), 0U);
}

}  // namespace
}  // namespace companyos::a11y
