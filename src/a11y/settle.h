// After an action, the app's reaction: the state an agent is handed must be the one the app
// settled in, not the one it had a moment after the action (GNOME Calculator showed "12"
// while a read right after the click still found "1"). Settling listens to the app's
// accessibility events from before the action is sent, and after it waits until the app
// has sent none for a quiet window, bounded: an app that keeps changing ends at the bound
// and is said to be still changing. It uses the event plumbing of waits (wait/events.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/deadline.h"

namespace companyos::a11y {

class Observer;

struct SettleRule {
  std::chrono::milliseconds quiet{40};
  std::chrono::milliseconds bound{1500};
  // The toolkit carries the action out this long after answering it (ActionReply::
  // effect_delay): quiet before then proves nothing.
  std::chrono::milliseconds not_before{0};
};

// In a modal dialog an action's effect often comes after a silence: LibreOffice's Save
// dialog answers the click on Save, writes the file without a word on the bus, and closes
// ~190 ms later (measured), so a 40 ms quiet window read the dialog as still open.
inline constexpr std::chrono::milliseconds kModalDialogQuiet{300};

// The rule for an action in a window with these states: a modal one waits longer.
SettleRule settle_rule_for(std::uint64_t window_states, std::chrono::milliseconds effect_delay);

struct Settled {
  std::chrono::milliseconds waited{0};  // from the end of the action to the settled look
  int events = 0;                       // the app's events during the action and after it
  bool still_changing = false;          // the bound ended it before a quiet spell
  bool watched = false;                 // events were on; false: the quiet window was waited blind
};

// The rule alone, on time points: over once no event came for `quiet` since the last one
// (or since the start, or since not_before after it), or once `bound` has passed since the
// start.
class QuietWindow {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  QuietWindow(TimePoint started, const SettleRule& rule);
  void event(TimePoint at);
  bool over(TimePoint now) const;
  // The earliest time over() can turn true without another event.
  TimePoint next_look() const;
  Settled outcome(TimePoint now, bool watched) const;

 private:
  // When the quiet spell ends without another event, the bound aside.
  TimePoint quiet_at() const;

  TimePoint started_;
  SettleRule rule_;
  TimePoint last_;
  int events_ = 0;
};

// A first look at a window holding a web document. A browser shows a page's tree while
// it still builds it (Firefox's first state had the form's first field and not its
// button), so the look is taken again until the document is no longer busy and the app
// has been quiet since the last read — bounded, and saying when it was still loading.
struct FirstLookRule {
  std::chrono::milliseconds quiet{150};
  std::chrono::milliseconds bound{3000};
};

enum class FirstLookStep {
  kStands,        // not busy, and nothing changed since the read: hand it over
  kReadAgain,     // busy, or events came since the read: read the window again
  kStillLoading,  // out of time: hand over the last read, saying it was still loading
};

// After a read (was the document incomplete: busy, or controls without their actions?)
// and a quiet spell since it (did events come?).
FirstLookStep first_look_step(bool document_incomplete, const Settled& since_read, bool time_left);

// Listens, from before an action until it has settled, to the events of the apps with
// these unique bus names. Construct, run the action and settle on one thread: the events
// are dispatched on a main context of its own, made the thread's default while it lives.
class SettleWatch {
 public:
  // Subscribes, then registers the event kinds with the registry (within `deadline`, at
  // most a second). Never fails: without events, settle() waits the quiet window blind.
  SettleWatch(Observer& observer, std::vector<std::string> bus_names, Deadline deadline);
  ~SettleWatch();
  SettleWatch(const SettleWatch&) = delete;
  SettleWatch& operator=(const SettleWatch&) = delete;

  // After the action: until the rule is over or the deadline passes.
  Settled settle(const SettleRule& rule, Deadline deadline);

 private:
  struct Listening;
  std::unique_ptr<Listening> listening_;
};

}  // namespace companyos::a11y
