// Waits for a condition on the desktop: a window appears or closes, a text appears, or an
// element exists / is gone / has a value / has a state. A wait is a synchronous call on the
// caller's thread bounded by its deadline, like the Observer's calls: it returns the outcome
// as soon as the condition holds, or TIMEOUT at the deadline with what it saw last.
//
// How it sees changes: it subscribes to AT-SPI event signals (see wait/events.h) on a private
// main context, then takes a baseline check, and re-checks after each relevant event
// (settled for a moment so a burst costs one check) and on a polling tick as a safety net
// for what emits no event. Window events are bookkept as they come, so a window that
// opens and closes between two checks still counts for WindowClosed.
//
// Errors: INVALID_ARGS for a malformed condition, POLICY_DENIED for password managers and
// for a value wait on a password field, STALE_REF for a ref that is unknown or whose window
// has closed (unless waiting for it to be gone), BUS_UNAVAILABLE when the first check finds
// no accessibility bus, APP_NOT_FOUND (details.reason "app_left_bus") when a window_appears
// or text_appears wait's app was seen on the bus and then no app of its name is there any
// more (an app not started yet is waited for). An app that stops answering never ends a wait early: its checks
// are cut at WaitOptions::check_budget, the wait goes on, and at the deadline the result is
// TIMEOUT (never APP_UNRESPONSIVE) with details.last_seen.unresponsive naming the app.
// No lock is held while waiting, so other calls are never slowed by a wait.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "a11y/action_target.h"
#include "a11y/model.h"
#include "a11y/observer.h"
#include "a11y/predicate.h"
#include "a11y/surfaces.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

// ---- conditions ---------------------------------------------------------------------

// A listed (visible) window of an app named app (case-insensitive) has exactly this title.
struct WindowAppears {
  std::string app;
  std::string title;
};

// A titled window of the app (with exactly this title, if given) that was open when the
// wait started, or opened during it, is no longer listed: destroyed, hidden, or its app
// exited. Untitled top-levels (popup menus, combo lists, tooltips) do not count. An app
// with no such window at the start makes the wait wait for one to open and then close.
struct WindowClosed {
  std::string app;
  std::optional<std::string> title;
};

// An element in a listed window of the app has text as an exact, case-sensitive substring
// of its name or of its value (Value.CurrentValue as printed, else its Text content, up
// to the first 65,536 characters). The window's title is its first element's name;
// descriptions do not count; password fields are never read.
struct TextAppears {
  std::string app;
  std::string text;
};

// A menu, drop-down list or tooltip of the app (of this kind, if given) is open: the rule
// of a11y/surfaces.h, in any listed window of the app.
struct SurfaceOpens {
  std::string app;
  std::optional<SurfaceKind> kind;
};


struct ElementPredicate {
  std::string ref;  // "@<snapshot>:e<N>"
  Predicate predicate = Predicate::kExists;
  std::optional<std::string> value;  // required for kValue and kState, refused otherwise
};

// An element named by a selector (automations' element waits and checks), as
// a11y/selected.h finds it in the app's windows. Unlike a ref's, its window not open yet is
// waited for, and two matches end the wait with AMBIGUOUS_TARGET: a script that cannot say
// which element it means. The evidence's ref is the one match's, in a stored snapshot.
struct SelectedElement {
  Selector selector = {};
  Predicate predicate = Predicate::kExists;
  std::optional<std::string> value = {};  // required for kValue and kState, refused otherwise
};

using WaitCondition =
    std::variant<WindowAppears, WindowClosed, TextAppears, SurfaceOpens, ElementPredicate, SelectedElement>;

// "window_appears", "window_closed", "text_appears", "surface_opens", "element" (by a ref or
// a selector).
std::string_view condition_kind(const WaitCondition& condition);
// INVALID_ARGS: empty app, title or text; a ref that is not a ref; a value missing for
// value/state or given for exists/gone; an unknown state name. POLICY_DENIED: a password
// manager's app name.
Status validate_condition(const WaitCondition& condition);

// ---- running a wait -----------------------------------------------------------------

struct WaitOptions {
  std::chrono::milliseconds poll_interval{250};  // safety-net check after the last one
  std::chrono::milliseconds event_settle{10};    // from the first event to its check
  std::chrono::milliseconds min_check_gap{50};   // between starts of event-driven checks
  std::chrono::milliseconds check_budget{2000};  // one check's limit (a hung app)
  bool events = true;                            // false: poll only (comparisons, tests)
  // Called once, on the waiting thread, after the baseline is taken and events are on
  // (unless the baseline already decided the wait). Must not throw.
  std::function<void()> on_baseline;
  // A stop request ends the wait at its next look (within poll_interval) with INTERNAL,
  // details.reason "cancelled", retry safe: the daemon is stopping.
  std::stop_token stop;
};

// What a wait saw when its condition held, one kind per condition; wire renders it.

// A window as a window wait tracked it.
struct WaitWindow {
  std::string id = {};
  std::optional<std::string> title = {};
  std::string app = {};       // "" when no listing named the app
  std::string bus_name = {};
  std::optional<int> pid = {};
};

// window_appears: the window, and what saw it open ("start", "event", "poll").
struct WindowAppearedEvidence {
  WaitWindow window = {};
  std::string seen_open_by = {};
};

// window_closed: the window, what saw it open and gone ("app_exit" too), and when it went,
// in ms from the start of the wait.
struct WindowClosedEvidence {
  WaitWindow window = {};
  std::string seen_open_by = {};
  std::string gone_by = {};
  std::int64_t gone_at_ms = 0;
};

// text_appears: where the text is. The window's snapshot is stored, so ref (empty when it
// could not be stored) can be acted on like a snapshot's.
struct TextAppearedEvidence {
  std::string window_id = {};
  std::string window_title = {};
  std::string ref = {};
  std::string role = {};
  std::string name = {};
  std::string field = {};  // "name" or "value"
};

// surface_opens: the innermost open surface, as `surfaces` lists it (its window's snapshot
// is stored, so ref and opener_ref act like a snapshot's; empty when it was not stored).
struct SurfaceOpenedEvidence {
  std::string window_id = {};
  std::string window_title = {};
  std::string ref = {};
  std::string kind = {};
  std::string role = {};
  std::string name = {};
  int items = 0;
  std::string opener_ref = {};  // empty for a top-level popup
};

// element: the ref (of a selected element: its one match's, or empty when none) and how
// many elements it matched ("one", "none", "several", "window_gone"); value
// for a value wait; for a state wait, the state waited for and every state seen.
struct ElementEvidence {
  std::string ref = {};
  std::string presence = {};
  std::optional<std::string> value = {};
  std::optional<std::string> state = {};
  std::vector<std::string> states = {};
};

using WaitEvidence = std::variant<WindowAppearedEvidence, WindowClosedEvidence,
                                  TextAppearedEvidence, SurfaceOpenedEvidence, ElementEvidence>;

struct WaitOutcome {
  std::string condition;                 // condition_kind()
  std::chrono::milliseconds elapsed{0};  // from the start until the condition was seen
  // What made the wait look: "start" (it held at once), "event" (an event, or a check an
  // event asked for) or "poll" (the safety-net tick).
  std::string seen_by;
  WaitEvidence evidence;
  std::size_t checks = 0;
  std::size_t events = 0;      // event signals received during the wait
  bool events_active = false;  // the registry accepted the listeners
};

Result<WaitOutcome> wait_for(Observer& observer, const WaitCondition& condition, Deadline deadline,
                             const WaitOptions& options = {});

}  // namespace companyos::a11y
