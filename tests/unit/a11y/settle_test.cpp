#include "a11y/settle.h"

#include <gtest/gtest.h>

#include <vector>

namespace companyos::a11y {
namespace {

using std::chrono::milliseconds;
using TimePoint = QuietWindow::TimePoint;

TEST(QuietWindow, SettlesAfterAQuietSpellBoundedAndNotBeforeTheToolkitActs) {
  struct Case {
    const char* what;
    SettleRule rule;
    std::vector<int> events_at;  // ms after the start
    int over_at;                 // the first whole ms at which it is over
    int events;
    bool still_changing;         // as said at over_at
  };
  const SettleRule plain{milliseconds(40), milliseconds(1500), milliseconds(0)};
  const SettleRule gtk4{milliseconds(40), milliseconds(1500), milliseconds(300)};
  const Case cases[] = {
      {"no event: the quiet window from the start", plain, {}, 40, 0, false},
      {"events during the action count from the start", plain, {0, 0, 0}, 40, 3, false},
      {"a burst, then quiet", plain, {5, 10, 30}, 70, 3, false},
      {"an event just inside the window restarts it", plain, {39}, 79, 1, false},
      {"an app that never stops ends at the bound, still changing",
       plain, {0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330, 360, 390, 420, 450, 480, 510, 540, 570,
               600, 630, 660, 690, 720, 750, 780, 810, 840, 870, 900, 930, 960, 990, 1020, 1050, 1080, 1110,
               1140, 1170, 1200, 1230, 1260, 1290, 1320, 1350, 1380, 1410, 1440, 1470, 1499},
       1500, 51, true},
      {"a GTK 4 button: quiet before it acts proves nothing", gtk4, {}, 340, 0, false},
      {"a GTK 4 button: its effect at 255 ms, then quiet", gtk4, {255, 260}, 340, 2, false},
      {"a GTK 4 button: its effect late, at 330 ms", gtk4, {330}, 370, 1, false},
      {"a bound shorter than the toolkit's delay still ends", {milliseconds(40), milliseconds(100), milliseconds(300)},
       {}, 100, 0, true},
  };
  const TimePoint start{};
  for (const Case& c : cases) {
    QuietWindow window(start, c.rule);
    std::size_t next = 0;
    int over_at = -1;
    for (int ms = 0; ms <= 2000 && over_at < 0; ++ms) {
      const TimePoint now = start + milliseconds(ms);
      while (next < c.events_at.size() && c.events_at[next] <= ms) window.event(start + milliseconds(c.events_at[next++]));
      if (window.over(now)) over_at = ms;
    }
    EXPECT_EQ(over_at, c.over_at) << c.what;
    const Settled settled = window.outcome(start + milliseconds(over_at), true);
    EXPECT_EQ(settled.events, c.events) << c.what;
    EXPECT_EQ(settled.waited, milliseconds(over_at)) << c.what;
    EXPECT_EQ(settled.watched, true) << c.what;
    EXPECT_EQ(settled.still_changing, c.still_changing) << c.what;
  }
}

TEST(QuietWindow, NextLookIsWhenItWouldBeOverWithoutAnotherEvent) {
  const TimePoint start{};
  QuietWindow window(start, SettleRule{milliseconds(40), milliseconds(1500), milliseconds(0)});
  EXPECT_EQ(window.next_look(), start + milliseconds(40));
  window.event(start + milliseconds(25));
  EXPECT_EQ(window.next_look(), start + milliseconds(65));
  window.event(start + milliseconds(10));  // late news of an earlier event moves nothing back
  EXPECT_EQ(window.next_look(), start + milliseconds(65));
  window.event(start + milliseconds(1490));
  EXPECT_EQ(window.next_look(), start + milliseconds(1500));
}

}  // namespace
}  // namespace companyos::a11y
