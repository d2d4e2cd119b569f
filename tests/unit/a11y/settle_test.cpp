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
    bool browser = true;
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
  auto painted_in_part = make_nodes({{-1, ATSPI_ROLE_FRAME, "Browser", {}, shown},
                                     {0, ATSPI_ROLE_DOCUMENT_WEB, "form", {}, shown},
                                     {1, ATSPI_ROLE_PUSH_BUTTON, "Go", {"press"}, control},
                                     {1, ATSPI_ROLE_PUSH_BUTTON, "Below", {"press"}, {ATSPI_STATE_FOCUSABLE}}});
  for (Node& node : painted_in_part) node.interfaces = kInterfaceAction;
  auto background_busy = page(shown, {"press"}, control);
  background_busy.push_back(make_nodes({{-1, ATSPI_ROLE_DOCUMENT_WEB, "New Tab", {}, {ATSPI_STATE_BUSY}}})[0]);
  background_busy.back().parent = 0;
  background_busy.back().ref = static_cast<int>(background_busy.size());
  background_busy.front().children.push_back(static_cast<int>(background_busy.size()) - 1);
  const Case cases[] = {
      {"loaded, its button with its action", page(shown, {"press"}, control), true, false},
      {"busy", page({ATSPI_STATE_SHOWING, ATSPI_STATE_BUSY}, {"press"}, control), true, true},
      {"its button read without actions", page(shown, {}, control), true, true},
      {"its only control not showing yet: not painted", page(shown, {}, {ATSPI_STATE_FOCUSABLE}), true, true},
      {"one control showing, one not: painted", painted_in_part, true, false},
      {"nor one that takes no focus", page(shown, {}, shown), true, false},
      {"only a background tab's page: the shown one is still to come", page({ATSPI_STATE_BUSY}, {}, control),
       false, true},
      {"a background tab's busy page is not waited for", background_busy, true, false},
      {"an empty page: the blank one before the page's",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "form - Browser", {}, shown}, {0, ATSPI_ROLE_DOCUMENT_WEB, "", {}, shown}}),
       true, true},
      {"a browser's frame without its page yet", make_nodes({{-1, ATSPI_ROLE_FRAME, "form - Browser", {}, shown}}),
       false, true},
      {"no page in another app's window: its button is not judged",
       make_nodes({{-1, ATSPI_ROLE_FRAME, "App", {}, shown}, {0, ATSPI_ROLE_PUSH_BUTTON, "Back", {}, control}}),
       false, false, false},
  };
  for (const Case& c : cases) {
    Snapshot snapshot = testing::snapshot_of(c.nodes);
    snapshot.showing_means_on_screen = true;
    snapshot.frames_show_web_pages = c.browser;
    EXPECT_EQ(holds_web_document(snapshot), c.holds) << c.what;
    EXPECT_EQ(web_document_incomplete(snapshot), c.incomplete) << c.what;
  }
  // Not a browser: a frame without a page is complete.
  Snapshot editor = testing::snapshot_of(make_nodes({{-1, ATSPI_ROLE_FRAME, "Editor", {}, shown}}));
  EXPECT_FALSE(web_document_expected(editor));
  EXPECT_FALSE(web_document_incomplete(editor));
  // A browser's dialog shows no page.
  Snapshot dialog = testing::snapshot_of(make_nodes({{-1, ATSPI_ROLE_DIALOG, "Save As", {}, shown}}));
  dialog.frames_show_web_pages = true;
  EXPECT_FALSE(web_document_expected(dialog));
}

}  // namespace
}  // namespace companyos::a11y

namespace companyos::a11y {
namespace {

TEST(SettleRuleFor, AModalDialogWaitsLongerForItsQuiet) {
  const StateSet modal = (StateSet{1} << ATSPI_STATE_MODAL) | (StateSet{1} << ATSPI_STATE_ACTIVE);
  const StateSet plain = StateSet{1} << ATSPI_STATE_ACTIVE;
  EXPECT_EQ(settle_rule_for(modal, std::chrono::milliseconds(0)).quiet, kModalDialogQuiet);
  EXPECT_EQ(settle_rule_for(plain, std::chrono::milliseconds(0)).quiet, SettleRule{}.quiet);
  EXPECT_EQ(settle_rule_for(0, std::chrono::milliseconds(0)).quiet, SettleRule{}.quiet) << "an unknown window";
  EXPECT_EQ(settle_rule_for(plain, std::chrono::milliseconds(300)).not_before, std::chrono::milliseconds(300));
  EXPECT_EQ(settle_rule_for(modal, std::chrono::milliseconds(300)).bound, SettleRule{}.bound);
}

}  // namespace
}  // namespace companyos::a11y
