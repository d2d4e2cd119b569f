#include "daemon/server/flow_control.h"

#include <gtest/gtest.h>

namespace companyos::daemon {
namespace {

constexpr std::size_t kMiB = 1024 * 1024;

TEST(FlowControl, DispatchAndReadingPauseAtTheirBoundsAndResumeBelow) {
  struct Case {
    const char* label;
    Backlog backlog;
    bool dispatch;
    bool read;
  };
  const Case cases[] = {
      {"idle", {0, 0, 0}, true, true},
      {"replies just under the bound", {kMiB - 1, 0, 0}, true, true},
      {"replies at the bound", {kMiB, 0, 0}, false, false},
      {"replies far over (one huge reply)", {64 * kMiB, 3, 90}, false, false},
      {"drained below again", {kMiB - 4096, 10, 300}, true, true},
      {"queue one line short", {0, 255, 255 * 30}, true, true},
      {"queue full by lines", {0, 256, 256 * 30}, true, false},
      {"queue full by bytes (one longest line)", {0, 1, 4 * kMiB}, true, false},
      {"queue bytes just under", {0, 2, 4 * kMiB - 1}, true, true},
      {"full queue and full output", {kMiB, 256, 4 * kMiB}, false, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(may_dispatch(c.backlog), c.dispatch);
    EXPECT_EQ(may_read(c.backlog), c.read);
  }
}

TEST(FlowControl, OtherLimitsAreHonoured) {
  const FlowLimits tight{.max_unsent_bytes = 10, .max_queued_lines = 2, .max_queued_bytes = 100};
  EXPECT_TRUE(may_dispatch({9, 0, 0}, tight));
  EXPECT_FALSE(may_dispatch({10, 0, 0}, tight));
  EXPECT_TRUE(may_read({0, 1, 99}, tight));
  EXPECT_FALSE(may_read({0, 2, 0}, tight));
  EXPECT_FALSE(may_read({0, 0, 100}, tight));
}

}  // namespace
}  // namespace companyos::daemon
