#include "a11y/settle.h"
#include "a11y/vocabulary.h"
#include "snapshot_nodes.h"

#include <gtest/gtest.h>

#include <vector>

namespace companyos::a11y {
namespace {

using std::chrono::milliseconds;
using TimePoint = QuietWindow::TimePoint;

TEST(FirstLook, StandsOnlyOnceTheDocumentIsLoadedAndTheAppQuiet) {
  struct Case {
    const char* what;
    bool busy;
    int events;
    bool still_changing;
    bool time_left;
    FirstLookStep expected;
  };
  const Case cases[] = {
      {"loaded and quiet", false, 0, false, true, FirstLookStep::kStands},
      {"loaded and quiet, no time left", false, 0, false, false, FirstLookStep::kStands},
      {"still busy", true, 0, false, true, FirstLookStep::kReadAgain},
      {"the tree changed since the read", false, 3, false, true, FirstLookStep::kReadAgain},
      {"still changing at the bound", false, 40, true, true, FirstLookStep::kReadAgain},
      {"busy and out of time", true, 0, false, false, FirstLookStep::kStillLoading},
      {"changed and out of time", false, 2, false, false, FirstLookStep::kStillLoading},
  };
  for (const Case& c : cases) {
    Settled since_read;
    since_read.events = c.events;
    since_read.still_changing = c.still_changing;
    EXPECT_EQ(first_look_step(c.busy, since_read, c.time_left), c.expected) << c.what;
  }
}

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

namespace companyos::a11y {
namespace {

TEST(FirstLook, APageIsIncompleteWhileBusyOrWhileItsControlsLackTheirActions) {
  using testing::make_nodes;
  struct Case {
    const char* what;
    std::vector<Node> nodes;
    bool holds;
    bool incomplete;
  };
  const auto page = [](std::vector<AtspiStateType> document_states, std::vector<std::string> button_actions,
                       std::vector<AtspiStateType> button_states) {
    auto nodes = make_nodes({{-1, ATSPI_ROLE_FRAME, "Browser", {}, {ATSPI_STATE_SHOWING}},
                             {0, ATSPI_ROLE_DOCUMENT_WEB, "form", {}, document_states},
                             {1, ATSPI_ROLE_PUSH_BUTTON, "Go", button_actions, button_states},
                             {0, ATSPI_ROLE_PUSH_BUTTON, "Back", {}, {ATSPI_STATE_SHOWING, ATSPI_STATE_FOCUSABLE}}});
    for (Node& node : nodes) node.interfaces = kInterfaceAction;
    return nodes;
  };
  const std::vector<AtspiStateType> shown = {ATSPI_STATE_SHOWING};
  const std::vector<AtspiStateType> control = {ATSPI_STATE_SHOWING, ATSPI_STATE_FOCUSABLE};
  const Case cases[] = {
      {"loaded, its button with its action", page(shown, {"press"}, control), true, false},
      {"busy", page({ATSPI_STATE_SHOWING, ATSPI_STATE_BUSY}, {"press"}, control), true, true},
      {"its button read without actions", page(shown, {}, control), true, true},
      {"a button not showing proves nothing", page(shown, {}, {ATSPI_STATE_FOCUSABLE}), true, false},
      {"nor one that takes no focus", page(shown, {}, shown), true, false},
      {"a background tab's page is not waited for", page({ATSPI_STATE_BUSY}, {}, control), false, false},
      {"no page: the browser's own button is not judged",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "App", {}, shown}, {0, ATSPI_ROLE_PUSH_BUTTON, "Back", {}, control}}),
       false, false},
  };
  for (const Case& c : cases) {
    Snapshot snapshot = testing::snapshot_of(c.nodes);
    snapshot.showing_means_on_screen = true;
    EXPECT_EQ(holds_web_document(snapshot), c.holds) << c.what;
    EXPECT_EQ(web_document_incomplete(snapshot), c.incomplete) << c.what;
  }
}

}  // namespace
}  // namespace companyos::a11y
