// Waits without a bus: conditions and their validation, event parsing, and the tracker
// fed with recorded sequences of events and check results on a made-up clock.
#include "a11y/wait/tracker.h"
#include "a11y/wait/conditions.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

using std::chrono::milliseconds;
using TimePoint = WaitTracker::TimePoint;

// A made-up clock: an hour past the steady clock's epoch, so nothing underflows.
TimePoint at(int ms) { return TimePoint(std::chrono::hours(1)) + milliseconds(ms); }

constexpr const char* kRegistry = ":1.0";
constexpr const char* kEditor = ":1.5";    // the app waited for, named "editor"
constexpr const char* kViewer = ":1.6";    // another app, named "viewer"
constexpr const char* kNewcomer = ":1.7";  // an app whose name is not known yet
constexpr const char* kDraft = "/org/a11y/atspi/accessible/7";
constexpr const char* kNotes = "/org/a11y/atspi/accessible/8";
constexpr const char* kPopup = "/org/a11y/atspi/accessible/15";

AtspiEvent window_event(const char* member, const char* sender, const char* path, std::string title,
                        int ms) {
  AtspiEvent event;
  event.family = AtspiEvent::Family::kWindow;
  event.sender = sender;
  event.path = path;
  event.member = member;
  event.text = std::move(title);
  event.received = at(ms);
  return event;
}

AtspiEvent object_event(const char* member, const char* detail, const char* sender,
                        const char* path, int ms, int detail1 = 0) {
  AtspiEvent event;
  event.sender = sender;
  event.path = path;
  event.member = member;
  event.detail = detail;
  event.detail1 = detail1;
  event.received = at(ms);
  return event;
}

AtspiEvent renamed(const char* sender, const char* path, std::string name, int ms) {
  AtspiEvent event = object_event("PropertyChange", "accessible-name", sender, path, ms);
  event.text = std::move(name);
  return event;
}

// The registry announcing that an app left the desktop.
AtspiEvent app_left(const char* app, int ms) {
  AtspiEvent event = object_event("ChildrenChanged", "remove", kRegistry, kRootPath, ms);
  event.object = ObjectRef{app, kRootPath};
  return event;
}

WindowInfo window(const char* bus_name, const char* path, std::string title) {
  WindowInfo info;
  info.bus_name = bus_name;
  info.path = path;
  info.title = std::move(title);
  info.app_name = bus_name == std::string(kEditor) ? "editor" : "other";
  info.id = "w-" + info.title;
  return info;
}

WindowsSeen listing(std::vector<WindowInfo> windows) {
  WindowsSeen seen;
  seen.app_running = true;
  seen.windows = std::move(windows);
  return seen;
}

WindowsSeen no_app() { return WindowsSeen{true, false, {}, std::nullopt}; }

WindowsSeen unanswered() {
  WindowsSeen seen;
  seen.answered = false;
  seen.app_running = true;
  seen.problem = make_error(ErrorCode::kAppUnresponsive, "app editor did not answer in time",
                            {{"app", "editor"}, {"bus_name", kEditor}});
  return seen;
}

struct Learn {
  const char* bus_name;
  const char* app_name;
};

// One step of a recorded wait at a time in ms: an event, a check's result, or an app name
// becoming known.
struct Step {
  int ms;
  std::variant<AtspiEvent, CheckResult, Learn> what;
};

void play(WaitTracker& tracker, const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    if (const auto* event = std::get_if<AtspiEvent>(&step.what)) {
      tracker.on_event(*event, at(step.ms));
    } else if (const auto* result = std::get_if<CheckResult>(&step.what)) {
      tracker.begin_check(at(step.ms));
      tracker.end_check(*result, at(step.ms));
    } else {
      const Learn& learn = std::get<Learn>(step.what);
      tracker.learn_app_name(learn.bus_name, learn.app_name);
    }
  }
}

WaitTracker tracker_for(WaitCondition condition, WaitOptions options = {}) {
  WaitTracker tracker(std::move(condition), at(0), at(10'000), std::move(options));
  tracker.learn_app_name(kEditor, "editor");
  tracker.learn_app_name(kViewer, "viewer");
  return tracker;
}

// A push button "OK" of app editor, named by a selector (automations' element waits).
SelectedElement selected(Predicate predicate, std::optional<std::string> value, std::string app = "editor") {
  Selector selector;
  selector.app = std::move(app);
  selector.role = ATSPI_ROLE_PUSH_BUTTON;
  selector.name = "OK";
  return SelectedElement{selector, predicate, std::move(value)};
}

// ---- conditions -----------------------------------------------------------------------

TEST(WaitConditions, PredicatesParseByExactName) {
  struct Case {
    const char* name;
    std::optional<Predicate> expected;
  };
  const Case cases[] = {
      {"exists", Predicate::kExists}, {"gone", Predicate::kGone}, {"value", Predicate::kValue},
      {"state", Predicate::kState},   {"", std::nullopt},         {"Exists", std::nullopt},
      {"equals", std::nullopt},       {"exists ", std::nullopt},
  };
  for (const Case& c : cases) {
    auto parsed = parse_predicate(c.name);
    if (c.expected) {
      ASSERT_TRUE(parsed.ok()) << c.name;
      EXPECT_EQ(*parsed, *c.expected);
      EXPECT_EQ(predicate_name(*parsed), c.name);
    } else {
      ASSERT_FALSE(parsed.ok()) << c.name;
      EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs) << c.name;
      EXPECT_FALSE(parsed.error().suggestion.empty());
    }
  }
}

TEST(WaitConditions, ValidationRefusesMalformedConditions) {
  struct Case {
    const char* what;
    WaitCondition condition;
    std::optional<ErrorCode> error;
  };
  const std::string ref = "@abc1:e4";
  const Case cases[] = {
      {"window appears", WindowAppears{"editor", "Draft"}, std::nullopt},
      {"window closed, any", WindowClosed{"editor", std::nullopt}, std::nullopt},
      {"window closed, titled", WindowClosed{"editor", "Draft"}, std::nullopt},
      {"text", TextAppears{"editor", "Saved"}, std::nullopt},
      {"a menu opens", SurfaceOpens{"editor", SurfaceKind::kMenu}, std::nullopt},
      {"any surface opens", SurfaceOpens{"editor", std::nullopt}, std::nullopt},
      {"surface without app", SurfaceOpens{"", SurfaceKind::kMenu}, ErrorCode::kInvalidArgs},
      {"password manager menu", SurfaceOpens{"KeePassXC", std::nullopt}, ErrorCode::kPolicyDenied},
      {"exists", ElementPredicate{ref, Predicate::kExists, std::nullopt}, std::nullopt},
      {"gone", ElementPredicate{ref, Predicate::kGone, std::nullopt}, std::nullopt},
      {"value", ElementPredicate{ref, Predicate::kValue, ""}, std::nullopt},
      {"state", ElementPredicate{ref, Predicate::kState, "checked"}, std::nullopt},
      {"empty app", WindowAppears{"", "Draft"}, ErrorCode::kInvalidArgs},
      {"empty app, closed", WindowClosed{"", std::nullopt}, ErrorCode::kInvalidArgs},
      {"empty title", WindowAppears{"editor", ""}, ErrorCode::kInvalidArgs},
      {"empty closed title", WindowClosed{"editor", ""}, ErrorCode::kInvalidArgs},
      {"empty text", TextAppears{"editor", ""}, ErrorCode::kInvalidArgs},
      {"empty text app", TextAppears{"", "x"}, ErrorCode::kInvalidArgs},
      {"not a ref", ElementPredicate{"e4", Predicate::kExists, std::nullopt},
       ErrorCode::kInvalidArgs},
      {"value without value", ElementPredicate{ref, Predicate::kValue, std::nullopt},
       ErrorCode::kInvalidArgs},
      {"state without state", ElementPredicate{ref, Predicate::kState, std::nullopt},
       ErrorCode::kInvalidArgs},
      {"exists with a value", ElementPredicate{ref, Predicate::kExists, "x"},
       ErrorCode::kInvalidArgs},
      {"gone with a value", ElementPredicate{ref, Predicate::kGone, "x"}, ErrorCode::kInvalidArgs},
      {"unknown state", ElementPredicate{ref, Predicate::kState, "shiny"}, ErrorCode::kInvalidArgs},
      {"state by label", ElementPredicate{ref, Predicate::kState, "Checked"},
       ErrorCode::kInvalidArgs},
      {"password manager", WindowAppears{"KeePassXC", "Unlock"}, ErrorCode::kPolicyDenied},
      {"password manager text", TextAppears{"pinentry-gtk-2", "PIN"}, ErrorCode::kPolicyDenied},
      {"selected, exists", selected(Predicate::kExists, std::nullopt), std::nullopt},
      {"selected, state", selected(Predicate::kState, "checked"), std::nullopt},
      {"selected, value without value", selected(Predicate::kValue, std::nullopt), ErrorCode::kInvalidArgs},
      {"selected, gone with a value", selected(Predicate::kGone, "x"), ErrorCode::kInvalidArgs},
      {"selected, unknown state", selected(Predicate::kState, "shiny"), ErrorCode::kInvalidArgs},
      {"selected, without app", selected(Predicate::kExists, std::nullopt, ""), ErrorCode::kInvalidArgs},
      {"selected, in a password manager", selected(Predicate::kExists, std::nullopt, "KeePassXC"),
       ErrorCode::kPolicyDenied},
      {"selected, a window by id",
       [] {
         SelectedElement c = selected(Predicate::kExists, std::nullopt);
         c.selector.window_id = "editor:1";
         return c;
       }(),
       ErrorCode::kInvalidArgs},
      {"selected, a scope by ref",
       [] {
         SelectedElement c = selected(Predicate::kExists, std::nullopt);
         c.selector.within = "@abc1:e2";
         return c;
       }(),
       ErrorCode::kInvalidArgs},
  };
  for (const Case& c : cases) {
    const Status status = validate_condition(c.condition);
    if (!c.error) {
      EXPECT_TRUE(status.ok()) << c.what << ": " << status.error().message;
    } else {
      ASSERT_FALSE(status.ok()) << c.what;
      EXPECT_EQ(status.error().code, *c.error) << c.what << ": " << status.error().message;
    }
  }
}

TEST(WaitConditions, DescribeThemselvesInJson) {
  const auto json = condition_to_json(ElementPredicate{"@abc1:e4", Predicate::kValue, "42"});
  EXPECT_EQ(json["kind"], "element");
  EXPECT_EQ(json["predicate"], "value");
  EXPECT_EQ(json["value"], "42");
  EXPECT_TRUE(condition_to_json(WindowClosed{"editor", std::nullopt})["title"].is_null());
  EXPECT_EQ(condition_kind(TextAppears{"editor", "x"}), "text_appears");
  EXPECT_EQ(condition_kind(SurfaceOpens{"editor", SurfaceKind::kList}), "surface_opens");
  EXPECT_EQ(condition_to_json(SurfaceOpens{"editor", SurfaceKind::kList})["surface"], "list");
  EXPECT_TRUE(condition_to_json(SurfaceOpens{"editor", std::nullopt})["surface"].is_null());
  const auto chosen = condition_to_json(selected(Predicate::kState, "checked"));
  EXPECT_EQ(chosen["kind"], "element");
  EXPECT_EQ(chosen["app"], "editor");
  EXPECT_EQ(chosen["selector"], "push button \"OK\" in app editor");
  EXPECT_EQ(chosen["value"], "checked");
}

// ---- events -----------------------------------------------------------------------------

TEST(WaitEvents, SignalsParseIntoEvents) {
  struct Case {
    const char* what;
    const char* interface;
    GVariant* parameters;  // floating; sunk below
    bool parses;
    AtspiEvent::Family family = AtspiEvent::Family::kObject;
    std::optional<std::string> text = std::nullopt;
    std::optional<ObjectRef> object = std::nullopt;
  };
  const Case cases[] = {
      {"window destroy with its title", kWindowEventInterface,
       g_variant_new("(siiva{sv})", "", 0, 0, g_variant_new_string("Draft"), nullptr), true,
       AtspiEvent::Family::kWindow, "Draft"},
      {"child removed", kObjectEventInterface,
       g_variant_new("(siiva{sv})", "remove", 3, 0, g_variant_new("(so)", kEditor, kDraft),
                     nullptr),
       true, AtspiEvent::Family::kObject, std::nullopt, ObjectRef{kEditor, kDraft}},
      {"state change with a number", kObjectEventInterface,
       g_variant_new("(siiva{sv})", "showing", 1, 0, g_variant_new_int32(0), nullptr), true},
      {"old bridges without properties", kObjectEventInterface,
       g_variant_new("(siiv)", "add", 0, 0, g_variant_new_int32(0)), true},
      {"not an event interface", "org.a11y.atspi.Registry",
       g_variant_new("(siiva{sv})", "", 0, 0, g_variant_new_int32(0), nullptr), false},
      {"wrong signature", kObjectEventInterface, g_variant_new("(ss)", "a", "b"), false},
  };
  for (const Case& c : cases) {
    const VariantPtr parameters(g_variant_ref_sink(c.parameters));
    auto event = parse_atspi_event(kEditor, kDraft, c.interface, "Member", parameters.get(), at(5));
    ASSERT_EQ(event.has_value(), c.parses) << c.what;
    if (!event) continue;
    EXPECT_EQ(event->family, c.family) << c.what;
    EXPECT_EQ(event->sender, kEditor);
    EXPECT_EQ(event->path, kDraft);
    EXPECT_EQ(event->text, c.text) << c.what;
    EXPECT_EQ(event->object, c.object) << c.what;
    EXPECT_EQ(event->received, at(5));
  }
  EXPECT_FALSE(
      parse_atspi_event(kEditor, kDraft, kWindowEventInterface, "Destroy", nullptr, at(0)));
}

// ---- window bookkeeping -------------------------------------------------------------------

TEST(WaitTracker, WindowClosedFromEventsAndPolls) {
  struct Case {
    const char* what;
    WaitCondition condition;
    std::vector<Step> steps;
    bool holds;
    const char* seen_by = "";
    const char* gone_by = "";
    int elapsed_ms = 0;
  };
  const WindowClosed any{"editor", std::nullopt};
  const Case cases[] = {
      {"closed between two polls",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {250, listing({})}},
       true,
       "poll",
       "poll",
       250},
      {"opened and closed between two polls",
       any,
       {{0, listing({})},
        {100, window_event("Activate", kEditor, kDraft, "Draft", 100)},
        {140, window_event("Destroy", kEditor, kDraft, "Draft", 140)}},
       true,
       "event",
       "event",
       140},
      {"opened and closed without a poll at all",
       any,
       {{0, no_app()},
        {100, window_event("Deactivate", kEditor, kDraft, "Draft", 100)},
        {101, window_event("Destroy", kEditor, kDraft, "Draft", 101)}},
       true,
       "event",
       "event",
       101},
      {"destroyed before it was seen",
       any,
       {{0, no_app()}, {80, window_event("Destroy", kEditor, kDraft, "Draft", 80)}},
       true,
       "event",
       "event",
       80},
      {"another app's window",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})},
        {50, window_event("Destroy", kViewer, kNotes, "Photo", 50)}},
       false},
      {"a popup menu opens and closes",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})},
        {50, window_event("Create", kEditor, kPopup, "", 50)},
        {51, window_event("Activate", kEditor, kPopup, "", 51)},
        {300, listing({window(kEditor, kDraft, "Draft"), window(kEditor, kPopup, "")})},
        {400, window_event("Destroy", kEditor, kPopup, "", 400)},
        {600, listing({window(kEditor, kDraft, "Draft")})}},
       false},
      {"the titled one of two",
       WindowClosed{"editor", "Notes"},
       {{0, listing({window(kEditor, kDraft, "Draft"), window(kEditor, kNotes, "Notes")})},
        {50, window_event("Destroy", kEditor, kDraft, "Draft", 50)},
        {90, window_event("Destroy", kEditor, kNotes, "Notes", 90)}},
       true,
       "event",
       "event",
       90},
      {"another title closes",
       WindowClosed{"editor", "Notes"},
       {{0, listing({window(kEditor, kDraft, "Draft"), window(kEditor, kNotes, "Notes")})},
        {50, window_event("Destroy", kEditor, kDraft, "Draft", 50)},
        {250, listing({window(kEditor, kNotes, "Notes")})}},
       false},
      {"its app exits",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {70, app_left(kEditor, 70)}},
       true,
       "event",
       "app_exit",
       70},
      {"another app exits",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {70, app_left(kViewer, 70)}},
       false},
      {"the app stops running between polls",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {250, no_app()}},
       true,
       "poll",
       "poll",
       250},
      {"an app that does not answer proves nothing",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {250, unanswered()}, {500, unanswered()}},
       false},
      {"the window is hidden: the check the event asks for decides",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})},
        {40, object_event("StateChanged", "visible", kEditor, kDraft, 40)},
        {50, listing({})}},
       true,
       "event",
       "event",
       50},
      {"a new app's events wait for its name",
       any,
       {{0, listing({})},
        {30, window_event("Activate", kNewcomer, kDraft, "Blink", 30)},
        {45, window_event("Destroy", kNewcomer, kDraft, "Blink", 45)},
        {60, Learn{kNewcomer, "editor"}}},
       true,
       "event",
       "event",
       45},
      {"a new app that turns out to be another",
       any,
       {{0, listing({})},
        {30, window_event("Activate", kNewcomer, kDraft, "Blink", 30)},
        {45, window_event("Destroy", kNewcomer, kDraft, "Blink", 45)},
        {60, Learn{kNewcomer, "viewer"}}},
       false},
      {"a window still open at the end",
       any,
       {{0, listing({window(kEditor, kDraft, "Draft")})},
        {250, listing({window(kEditor, kDraft, "Draft")})}},
       false},
  };
  for (const Case& c : cases) {
    WaitTracker tracker = tracker_for(c.condition);
    play(tracker, c.steps);
    ASSERT_EQ(tracker.outcome().has_value(), c.holds)
        << c.what << ": " << tracker.last_seen().dump();
    EXPECT_FALSE(tracker.failure()) << c.what;
    if (!c.holds) continue;
    const WaitOutcome& outcome = *tracker.outcome();
    EXPECT_EQ(outcome.condition, "window_closed");
    EXPECT_EQ(outcome.seen_by, c.seen_by) << c.what;
    const auto& closed = std::get<WindowClosedEvidence>(outcome.evidence);
    EXPECT_EQ(closed.gone_by, c.gone_by) << c.what;
    EXPECT_EQ(outcome.elapsed, milliseconds(c.elapsed_ms)) << c.what;
    ASSERT_TRUE(closed.window.title.has_value()) << c.what;
    EXPECT_FALSE(closed.window.title->empty()) << c.what;
  }
}

TEST(WaitTracker, WindowAppearsFromListingsAndEvents) {
  struct Case {
    const char* what;
    std::vector<Step> steps;
    bool holds;
    const char* seen_by = "";
  };
  const Case cases[] = {
      {"there from the start", {{0, listing({window(kEditor, kDraft, "Report")})}}, true, "start"},
      {"announced by its activation",
       {{0, no_app()}, {120, window_event("Activate", kEditor, kDraft, "Report", 120)}},
       true,
       "event"},
      {"renamed to the title",
       {{0, listing({window(kEditor, kDraft, "Untitled")})},
        {80, renamed(kEditor, kDraft, "Report", 80)}},
       true,
       "event"},
      {"listed by a poll",
       {{0, no_app()}, {250, listing({window(kEditor, kDraft, "Report")})}},
       true,
       "poll"},
      {"titles match exactly", {{0, listing({window(kEditor, kDraft, "report")})}}, false},
      {"another app's window",
       {{0, no_app()}, {50, window_event("Activate", kViewer, kDraft, "Report", 50)}},
       false},
      {"announced and destroyed before it was looked at",
       {{0, no_app()}, {50, window_event("Destroy", kEditor, kDraft, "Report", 50)}},
       false},
  };
  for (const Case& c : cases) {
    WaitTracker tracker = tracker_for(WindowAppears{"editor", "Report"});
    play(tracker, c.steps);
    ASSERT_EQ(tracker.outcome().has_value(), c.holds)
        << c.what << ": " << tracker.last_seen().dump();
    if (c.holds) {
      EXPECT_EQ(tracker.outcome()->seen_by, c.seen_by) << c.what;
      const auto& appeared = std::get<WindowAppearedEvidence>(tracker.outcome()->evidence);
      EXPECT_EQ(appeared.window.title, "Report");
      EXPECT_EQ(appeared.window.app, "editor");
    }
  }
}

TEST(WaitTracker, AWaitForWhatAnAppWouldShowEndsWhenTheAppLeavesTheBus) {
  TextSeen text_running;
  text_running.app_running = true;
  TextSeen text_gone;
  TextSeen text_unanswered;
  text_unanswered.answered = false;
  struct Case {
    const char* what;
    WaitCondition condition;
    std::vector<Step> steps;
    bool fails;
  };
  const Case cases[] = {
      {"window: running, then gone", WindowAppears{"editor", "Report"},
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {300, no_app()}}, true},
      {"window: not started yet", WindowAppears{"editor", "Report"},
       {{0, no_app()}, {250, no_app()}, {500, no_app()}}, false},
      {"window: started during the wait, still there", WindowAppears{"editor", "Report"},
       {{0, no_app()}, {250, listing({window(kEditor, kDraft, "Draft")})},
        {500, listing({window(kEditor, kDraft, "Draft")})}}, false},
      {"window: an unanswered listing proves nothing", WindowAppears{"editor", "Report"},
       {{0, listing({})}, {250, unanswered()}}, false},
      {"window closed: the app leaving is the success, not an error",
       WindowClosed{"editor", std::string("Draft")},
       {{0, listing({window(kEditor, kDraft, "Draft")})}, {300, no_app()}}, false},
      {"text: running, then gone", TextAppears{"editor", "saved"},
       {{0, text_running}, {300, text_gone}}, true},
      {"text: not started yet", TextAppears{"editor", "saved"},
       {{0, text_gone}, {250, text_gone}}, false},
      {"text: unanswered after running", TextAppears{"editor", "saved"},
       {{0, text_running}, {250, text_unanswered}}, false},
  };
  for (const Case& c : cases) {
    WaitTracker tracker = tracker_for(c.condition);
    play(tracker, c.steps);
    ASSERT_EQ(tracker.failure().has_value(), c.fails) << c.what << ": " << tracker.last_seen().dump();
    if (!c.fails) continue;
    EXPECT_EQ(tracker.failure()->code, ErrorCode::kAppNotFound) << c.what;
    EXPECT_EQ(tracker.failure()->details["reason"], "app_left_bus") << c.what;
    EXPECT_EQ(tracker.failure()->details["app"], "editor") << c.what;
    EXPECT_EQ(tracker.failure()->details["elapsed_ms"], 300) << c.what;
  }
}

TEST(WaitTracker, AnAppLeavingAsksForACheckAtOnce) {
  for (const WaitCondition& condition :
       {WaitCondition{WindowAppears{"editor", "Report"}}, WaitCondition{TextAppears{"editor", "x"}}}) {
    WaitTracker tracker = tracker_for(condition);
    play(tracker, {{0, listing({})}});
    tracker.events_started(true, at(0));
    tracker.begin_check(at(1));
    tracker.end_check(listing({}), at(1));
    EXPECT_FALSE(tracker.check_due(at(40)));
    tracker.on_event(app_left(kEditor, 40), at(40));
    EXPECT_TRUE(tracker.check_due(at(100))) << condition_kind(condition);
  }
}

// ---- text and elements --------------------------------------------------------------------

TEST(WaitText, FindsTextInNamesAndValuesButNeverInPasswords) {
  Snapshot snapshot;
  snapshot.window.title = "Editor";
  snapshot.nodes = testing::make_nodes({
      {-1, ATSPI_ROLE_FRAME, "Editor"},
      {0, ATSPI_ROLE_LABEL, "Status: saved"},
      {0, ATSPI_ROLE_TEXT, "Body"},
      {0, ATSPI_ROLE_PASSWORD_TEXT, "Password"},
      {0, ATSPI_ROLE_SPIN_BUTTON, "Level"},
  });
  snapshot.nodes[2].value = "the quick brown fox";
  snapshot.nodes[3].value = "hunter2";  // never read in practice; never matched here either
  snapshot.nodes[4].value = "42";
  struct Case {
    const char* text;
    int ref;  // 0: no match
    const char* field = "";
  };
  const Case cases[] = {
      {"saved", 2, "name"},
      {"Status", 2, "name"},
      {"brown fox", 3, "value"},
      {"Editor", 1, "name"},
      {"42", 5, "value"},
      {"hunter", 0},
      {"Saved", 0},
      {"dog", 0},
      {"", 0},
  };
  for (const Case& c : cases) {
    auto match = find_text(snapshot, c.text);
    ASSERT_EQ(match.has_value(), c.ref != 0) << c.text;
    if (!match) continue;
    EXPECT_EQ(match->index, c.ref) << c.text;
    EXPECT_EQ(match->field, c.field) << c.text;
    EXPECT_EQ(match->window.title, "Editor");
    EXPECT_TRUE(match->ref.empty());
  }
}

TEST(WaitTracker, TextHoldsWhenACheckFindsIt) {
  WaitTracker tracker = tracker_for(TextAppears{"editor", "saved"});
  TextSeen nothing;
  nothing.app_running = true;
  nothing.windows_read = 1;
  nothing.nodes_read = 40;
  play(tracker, {{0, nothing}});
  EXPECT_FALSE(tracker.done());
  // Any event of the app asks for a check; another app's events do not.
  tracker.on_event(object_event("TextChanged", "insert", kViewer, kDraft, 20), at(20));
  EXPECT_FALSE(tracker.check_due(at(100)));
  tracker.on_event(object_event("TextChanged", "insert", kEditor, kDraft, 30), at(30));
  EXPECT_TRUE(tracker.check_due(at(50)));
  TextSeen found = nothing;
  found.match = TextMatch{
      window(kEditor, kDraft, "Editor"), 3, "@abc1:e3", ATSPI_ROLE_LABEL, "Status: saved", "name"};
  play(tracker, {{52, found}});
  ASSERT_TRUE(tracker.outcome().has_value());
  EXPECT_EQ(tracker.outcome()->seen_by, "event");
  const auto& text = std::get<TextAppearedEvidence>(tracker.outcome()->evidence);
  EXPECT_EQ(text.ref, "@abc1:e3");
  EXPECT_EQ(text.role, "label");
  EXPECT_EQ(tracker.outcome()->elapsed, milliseconds(52));
}

TEST(WaitTracker, ElementPredicatesAgainstWhatAChecksSees) {
  using Presence = ElementSighting::Presence;
  // kUnknown: no sighting (the app did not answer).
  enum class Seen { kOne, kNone, kSeveral, kWindowGone, kUnknown };
  auto seen = [](Seen presence, std::optional<std::string> value = std::nullopt,
                 StateSet states = 0) {
    ElementSeen result;
    if (presence == Seen::kUnknown) return result;
    ElementSighting sighting;
    sighting.presence = presence == Seen::kOne       ? Presence::kOne
                        : presence == Seen::kNone    ? Presence::kNone
                        : presence == Seen::kSeveral ? Presence::kSeveral
                                                     : Presence::kWindowGone;
    sighting.value = std::move(value);
    sighting.states = states;
    result.sighting = sighting;
    return result;
  };
  ElementSeen withheld = seen(Seen::kOne);
  withheld.sighting->value_withheld = true;
  ElementSeen stale_snapshot = seen(Seen::kUnknown);
  stale_snapshot.problem =
      make_error(ErrorCode::kStaleRef, "unknown snapshot", {{"kind", "snapshot_unknown"}});
  ElementSeen hung = seen(Seen::kUnknown);
  hung.problem = make_error(ErrorCode::kAppUnresponsive, "app editor did not answer in time",
                            {{"app", "editor"}, {"bus_name", kEditor}});
  const StateSet checked = StateSet{1} << ATSPI_STATE_CHECKED;
  struct Case {
    const char* what;
    Predicate predicate;
    std::optional<std::string> value;
    ElementSeen seen;
    bool holds;
    std::optional<ErrorCode> failure = std::nullopt;
  };
  const Case cases[] = {
      {"exists: one", Predicate::kExists, {}, seen(Seen::kOne), true},
      {"exists: twins", Predicate::kExists, {}, seen(Seen::kSeveral), false},
      {"exists: none", Predicate::kExists, {}, seen(Seen::kNone), false},
      {"exists: window gone",
       Predicate::kExists,
       {},
       seen(Seen::kWindowGone),
       false,
       ErrorCode::kStaleRef},
      {"exists: no answer", Predicate::kExists, {}, hung, false},
      {"gone: none", Predicate::kGone, {}, seen(Seen::kNone), true},
      {"gone: window gone", Predicate::kGone, {}, seen(Seen::kWindowGone), true},
      {"gone: still one", Predicate::kGone, {}, seen(Seen::kOne), false},
      {"gone: twins", Predicate::kGone, {}, seen(Seen::kSeveral), false},
      {"value equal", Predicate::kValue, "42", seen(Seen::kOne, "42"), true},
      {"value differs", Predicate::kValue, "42", seen(Seen::kOne, "42.0"), false},
      {"value empty", Predicate::kValue, "", seen(Seen::kOne, ""), true},
      {"value unread", Predicate::kValue, "", seen(Seen::kOne), false},
      {"value of twins", Predicate::kValue, "42", seen(Seen::kSeveral), false},
      {"value of a password", Predicate::kValue, "x", withheld, false, ErrorCode::kPolicyDenied},
      {"state held", Predicate::kState, "checked", seen(Seen::kOne, {}, checked), true},
      {"state not held", Predicate::kState, "checked", seen(Seen::kOne), false},
      {"state of a vanished element", Predicate::kState, "checked", seen(Seen::kNone), false},
      {"a ref from a forgotten snapshot",
       Predicate::kGone,
       {},
       stale_snapshot,
       false,
       ErrorCode::kStaleRef},
  };
  for (const Case& c : cases) {
    WaitTracker tracker = tracker_for(ElementPredicate{"@abc1:e4", c.predicate, c.value});
    tracker.set_element_bus_name(kEditor);
    play(tracker, {{0, c.seen}});
    EXPECT_EQ(tracker.outcome().has_value(), c.holds) << c.what;
    ASSERT_EQ(tracker.failure().has_value(), c.failure.has_value()) << c.what;
    if (c.failure) {
      EXPECT_EQ(tracker.failure()->code, *c.failure) << c.what;
    }
    if (c.holds) {
      EXPECT_EQ(tracker.outcome()->seen_by, "start") << c.what;
    }
  }
}

// The same looks judged for an element named by a selector: its window not there is waited
// through, two matches (or a scope twice) end the wait, and the evidence names the match.
TEST(WaitTracker, SelectedElementsAreJudgedAsASelectorNamesThem) {
  using Presence = ElementSighting::Presence;
  auto seen = [](Presence presence, std::optional<std::string> value = std::nullopt, std::string ref = "") {
    ElementSeen result;
    result.sighting = ElementSighting{.presence = presence, .matches = presence == Presence::kSeveral ? 2u : 0u,
                                      .value = std::move(value)};
    result.ref = std::move(ref);
    return result;
  };
  ElementSeen withheld = seen(Presence::kOne, std::nullopt, "@abc2:e9");
  withheld.sighting->value_withheld = true;
  ElementSeen hung;
  hung.problem = make_error(ErrorCode::kAppUnresponsive, "app editor did not answer in time");
  ElementSeen scope_twice;
  scope_twice.problem =
      make_error(ErrorCode::kAmbiguousTarget, "2 elements of the window match the scope", {{"kind", "scope_not_unique"}});
  struct Case {
    const char* what;
    Predicate predicate;
    std::optional<std::string> value;
    ElementSeen seen;
    bool holds;
    std::optional<ErrorCode> failure = std::nullopt;
    std::string evidence_ref = {};
  };
  const Case cases[] = {
      {"exists: one", Predicate::kExists, {}, seen(Presence::kOne, {}, "@abc2:e9"), true, {}, "@abc2:e9"},
      {"exists: two", Predicate::kExists, {}, seen(Presence::kSeveral), false, ErrorCode::kAmbiguousTarget},
      {"exists: none", Predicate::kExists, {}, seen(Presence::kNone), false},
      {"exists: no window yet", Predicate::kExists, {}, seen(Presence::kWindowGone), false},
      {"exists: no answer", Predicate::kExists, {}, hung, false},
      {"exists: the scope twice", Predicate::kExists, {}, scope_twice, false, ErrorCode::kAmbiguousTarget},
      {"gone: none", Predicate::kGone, {}, seen(Presence::kNone), true},
      {"gone: with its window", Predicate::kGone, {}, seen(Presence::kWindowGone), true},
      {"gone: two left", Predicate::kGone, {}, seen(Presence::kSeveral), false},
      {"value equal", Predicate::kValue, "42", seen(Presence::kOne, "42", "@abc2:e9"), true, {}, "@abc2:e9"},
      {"value differs", Predicate::kValue, "42", seen(Presence::kOne, "41", "@abc2:e9"), false},
      {"value of a password", Predicate::kValue, "x", withheld, false, ErrorCode::kPolicyDenied},
  };
  for (const Case& c : cases) {
    WaitTracker tracker = tracker_for(selected(c.predicate, c.value));
    play(tracker, {{0, c.seen}});
    EXPECT_EQ(tracker.outcome().has_value(), c.holds) << c.what;
    ASSERT_EQ(tracker.failure().has_value(), c.failure.has_value()) << c.what;
    if (c.failure) {
      EXPECT_EQ(tracker.failure()->code, *c.failure) << c.what;
      EXPECT_FALSE(tracker.failure()->details.contains("ref")) << c.what;
    }
    if (c.holds) {
      const auto& evidence = std::get<ElementEvidence>(tracker.outcome()->evidence);
      EXPECT_EQ(evidence.ref, c.evidence_ref) << c.what;
    }
  }
}

TEST(WaitTracker, SelectedElementChecksFollowOnlyItsAppsEvents) {
  WaitTracker tracker = tracker_for(selected(Predicate::kExists, std::nullopt));
  ElementSeen none;
  none.sighting = ElementSighting{.presence = ElementSighting::Presence::kNone};
  play(tracker, {{0, none}});
  tracker.on_event(object_event("ChildrenChanged", "add", kViewer, kDraft, 10), at(10));
  EXPECT_FALSE(tracker.check_due(at(100)));
  tracker.on_event(object_event("ChildrenChanged", "add", kEditor, kDraft, 120), at(120));
  EXPECT_TRUE(tracker.check_due(at(200)));
}

TEST(WaitTracker, ElementChecksFollowOnlyItsAppsEvents) {
  WaitTracker tracker = tracker_for(ElementPredicate{"@abc1:e4", Predicate::kGone, std::nullopt});
  tracker.set_element_bus_name(kEditor);
  ElementSeen one;
  one.sighting = ElementSighting{.presence = ElementSighting::Presence::kOne};
  play(tracker, {{0, one}});
  tracker.on_event(object_event("ChildrenChanged", "remove", kViewer, kDraft, 10), at(10));
  EXPECT_FALSE(tracker.check_due(at(100)));
  tracker.on_event(app_left(kEditor, 120), at(120));
  EXPECT_TRUE(tracker.check_due(at(130)));
}

// ---- scheduling and timeouts ---------------------------------------------------------------

TEST(WaitTracker, ChecksComeAtTheBaselineOnEventsAndOnTheTick) {
  WaitOptions options;  // poll 250, settle 10, gap 50
  WaitTracker tracker(WindowClosed{"editor", std::nullopt}, at(0), at(1000), options);
  tracker.learn_app_name(kEditor, "editor");
  EXPECT_TRUE(tracker.check_due(at(0)));  // the baseline, at once
  EXPECT_EQ(tracker.next_wake(at(0)), at(0));
  tracker.begin_check(at(0));
  EXPECT_FALSE(tracker.check_due(at(1)));  // never two at a time
  tracker.end_check(listing({window(kEditor, kDraft, "Draft")}), at(5));

  EXPECT_FALSE(tracker.check_due(at(254)));
  EXPECT_TRUE(tracker.check_due(at(255)));  // the polling tick, after the last check ended
  EXPECT_EQ(tracker.next_wake(at(10)), at(255));

  // An event asks for a check once it settled, and while events keep coming, checks they
  // ask for are paced by the gap.
  tracker.on_event(object_event("StateChanged", "visible", kEditor, kDraft, 20), at(20));
  EXPECT_FALSE(tracker.check_due(at(29)));
  EXPECT_TRUE(tracker.check_due(at(30)));
  EXPECT_EQ(tracker.next_wake(at(21)), at(30));
  tracker.begin_check(at(30));
  tracker.end_check(listing({window(kEditor, kDraft, "Draft")}), at(35));
  tracker.on_event(object_event("StateChanged", "visible", kEditor, kDraft, 40), at(40));
  EXPECT_FALSE(tracker.check_due(at(79)));
  EXPECT_TRUE(tracker.check_due(at(80)));
  tracker.begin_check(at(80));
  tracker.end_check(listing({window(kEditor, kDraft, "Draft")}), at(85));
  tracker.on_event(object_event("StateChanged", "visible", kEditor, kDraft, 200), at(200));
  EXPECT_TRUE(tracker.check_due(at(210)));  // long after the gap: only the settle time

  // The deadline caps every wake-up.
  WaitTracker short_wait(WindowClosed{"editor", std::nullopt}, at(0), at(100), options);
  short_wait.begin_check(at(0));
  short_wait.end_check(no_app(), at(2));
  EXPECT_EQ(short_wait.next_wake(at(10)), at(100));
  EXPECT_EQ(short_wait.next_wake(at(150)), at(150));  // never in the past
}

// The first check comes before the events: it names the app, so the events of an app that
// then closes its window and leaves at once still count (nobody can be asked its name any
// more), and the check that follows the events covers the moment between.
TEST(WaitTracker, TheBaselineNamesTheAppBeforeEventsAndACheckFollowsThem) {
  WaitOptions options;  // poll 250, settle 10, gap 50
  WaitTracker tracker(WindowClosed{"editor", std::string("Draft")}, at(0), at(1000), options);
  EXPECT_TRUE(tracker.needs_name(kEditor));
  tracker.begin_check(at(0));
  tracker.end_check(listing({window(kEditor, kDraft, "Draft")}), at(5));
  EXPECT_FALSE(tracker.needs_name(kEditor));
  EXPECT_FALSE(tracker.check_due(at(10)));

  tracker.events_started(true, at(12));
  EXPECT_FALSE(tracker.check_due(at(21)));
  EXPECT_TRUE(tracker.check_due(at(22)));  // at once, but for the settle time
  tracker.on_event(window_event("Destroy", kEditor, kDraft, "", 14), at(14));
  tracker.on_event(app_left(kEditor, 15), at(15));
  ASSERT_TRUE(tracker.done());
  const WaitOutcome& outcome = *tracker.outcome();
  const auto& closed = std::get<WindowClosedEvidence>(outcome.evidence);
  EXPECT_EQ(closed.window.title, "Draft");
  EXPECT_EQ(closed.seen_open_by, "start");
  EXPECT_EQ(closed.gone_by, "event");
  EXPECT_TRUE(outcome.events_active);

  // Closed between the first check and the events: the check after them sees it gone.
  WaitTracker between(WindowClosed{"editor", std::nullopt}, at(0), at(1000), options);
  between.begin_check(at(0));
  between.end_check(listing({window(kEditor, kDraft, "Draft")}), at(5));
  between.events_started(true, at(12));
  between.begin_check(at(22));
  between.end_check(no_app(), at(30));
  ASSERT_TRUE(between.done());
  EXPECT_EQ(std::get<WindowClosedEvidence>(between.outcome()->evidence).gone_by, "event");
}

TEST(WaitTracker, TimeoutSaysWhatWasSeenLast) {
  struct Case {
    const char* what;
    WaitCondition condition;
    CheckResult last;
    const char* expect_in_last_seen;
    const char* expect_in_suggestion;
  };
  ElementSeen value;
  value.sighting = ElementSighting{.presence = ElementSighting::Presence::kOne, .value = "41"};
  const Case cases[] = {
      {"window never appeared", WindowAppears{"editor", "Report"},
       listing({window(kEditor, kDraft, "Draft")}), "Draft", "wait longer"},
      {"app never ran", WindowClosed{"editor", std::nullopt}, no_app(), "\"app_running\":false",
       "no app named editor"},
      {"no window to close", WindowClosed{"editor", std::nullopt}, listing({}), "windows_tracked",
       "no window of the app was open"},
      {"app hung", WindowAppears{"editor", "Report"}, unanswered(), "unresponsive",
       "did not answer"},
      {"value differs", ElementPredicate{"@abc1:e4", Predicate::kValue, "42"}, value,
       "\"value\":\"41\"", "wait longer"},
  };
  for (const Case& c : cases) {
    WaitTracker tracker(c.condition, at(0), at(700), {});
    tracker.learn_app_name(kEditor, "editor");
    play(tracker, {{0, c.last}, {250, c.last}, {500, c.last}});
    ASSERT_FALSE(tracker.done()) << c.what;
    const Error error = tracker.timeout_error(at(700));
    EXPECT_EQ(error.code, ErrorCode::kTimeout) << c.what;
    EXPECT_EQ(error.retry, Retry::kSafe);
    EXPECT_EQ(error.details["waited_ms"], 700) << c.what;
    EXPECT_EQ(error.details["condition"]["kind"], condition_kind(c.condition));
    const auto& seen = error.details["last_seen"];
    EXPECT_EQ(seen["checks"], 3) << c.what;
    EXPECT_EQ(seen["at_ms"], 500) << c.what;
    EXPECT_NE(seen.dump().find(c.expect_in_last_seen), std::string::npos)
        << c.what << ": " << seen.dump();
    EXPECT_NE(error.suggestion.find(c.expect_in_suggestion), std::string::npos)
        << c.what << ": " << error.suggestion;
    EXPECT_NE(error.message.find("700 ms"), std::string::npos) << error.message;
  }
}

TEST(WaitTracker, LastSeenCutsLongValues) {
  struct Case {
    std::string value;
    std::string shown;
  };
  const Case cases[] = {
      {std::string(200, 'x'), std::string(200, 'x')},
      {std::string(201, 'x'), std::string(200, 'x') + "…"},
      {"ü" + std::string(300, 'y'), "ü" + std::string(199, 'y') + "…"},  // whole characters
  };
  for (const Case& c : cases) {
    WaitTracker tracker = tracker_for(ElementPredicate{"@abc1:e4", Predicate::kValue, "z"});
    ElementSeen seen;
    seen.sighting = ElementSighting{.presence = ElementSighting::Presence::kOne, .value = c.value};
    play(tracker, {{0, seen}});
    EXPECT_EQ(tracker.last_seen()["value"], c.shown);
  }
}

TEST(WaitTracker, TheFirstCheckEndsTheWaitOnAMissingBusButALaterOneDoesNot) {
  WindowsSeen no_bus = unanswered();
  no_bus.problem = make_error(ErrorCode::kBusUnavailable, "no accessibility bus");
  WaitTracker first = tracker_for(WindowAppears{"editor", "Report"});
  play(first, {{0, no_bus}});
  ASSERT_TRUE(first.failure().has_value());
  EXPECT_EQ(first.failure()->code, ErrorCode::kBusUnavailable);

  WaitTracker later = tracker_for(WindowAppears{"editor", "Report"});
  play(later, {{0, no_app()}, {250, no_bus}});
  EXPECT_FALSE(later.done());
}

}  // namespace
}  // namespace companyos::a11y
