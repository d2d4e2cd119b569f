#include "a11y/settle.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "a11y/bus/call_scope.h"
#include "a11y/observer.h"
#include "a11y/wait/events.h"
#include "a11y/wait/main_context.h"

#include <atspi/atspi.h>

namespace companyos::a11y {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Finding the bus and registering are quick; a registry that does not answer within this
// costs the settle its events, not the action its deadline.
constexpr milliseconds kSettleSetupBudget{1000};

}  // namespace

QuietWindow::QuietWindow(TimePoint started, const SettleRule& rule)
    : started_(started), rule_(rule), last_(started) {}

void QuietWindow::event(TimePoint at) {
  ++events_;
  last_ = std::max(last_, at);
}

bool QuietWindow::over(TimePoint now) const { return now >= next_look(); }

QuietWindow::TimePoint QuietWindow::quiet_at() const {
  return std::max(last_, started_ + rule_.not_before) + rule_.quiet;
}

QuietWindow::TimePoint QuietWindow::next_look() const { return std::min(quiet_at(), started_ + rule_.bound); }

Settled QuietWindow::outcome(TimePoint now, bool watched) const {
  Settled settled;
  settled.waited = std::chrono::duration_cast<milliseconds>(now - started_);
  settled.events = events_;
  // Ended by the bound before a quiet spell (or before the toolkit could have acted).
  settled.still_changing = now < quiet_at();
  settled.watched = watched;
  return settled;
}

SettleRule settle_rule_for(std::uint64_t window_states, std::chrono::milliseconds effect_delay) {
  SettleRule rule;
  rule.not_before = effect_delay;
  if (has_state(window_states, ATSPI_STATE_MODAL)) rule.quiet = kModalDialogQuiet;
  return rule;
}

FirstLookStep first_look_step(bool document_incomplete, const Settled& since_read, bool time_left) {
  if (!document_incomplete && since_read.events == 0 && !since_read.still_changing) return FirstLookStep::kStands;
  return time_left ? FirstLookStep::kReadAgain : FirstLookStep::kStillLoading;
}

// Torn down in reverse: the registration, then the subscription (which needs the context
// still the thread's default), then the context; the inbox outlives them.
struct SettleWatch::Listening {
  std::vector<std::string> bus_names;
  std::vector<Clock::time_point> inbox;
  ThreadContext context;
  std::optional<EventSubscription> subscription;
  std::optional<EventRegistration> registration;
};

SettleWatch::SettleWatch(Observer& observer, std::vector<std::string> bus_names, Deadline deadline)
    : listening_(std::make_unique<Listening>()) {
  Listening& listening = *listening_;
  listening.bus_names = std::move(bus_names);
  Channel bus;
  {
    CallScope scope(std::min(deadline, Clock::now() + kSettleSetupBudget));
    if (auto channel = observer.bus().bus_channel(scope)) bus = *channel;
  }
  if (!bus.connection) return;
  listening.subscription.emplace(bus.connection, [&listening](AtspiEvent event) {
    if (std::find(listening.bus_names.begin(), listening.bus_names.end(), event.sender) !=
        listening.bus_names.end()) {
      listening.inbox.push_back(event.received);
    }
  });
  CallScope scope(std::min(deadline, Clock::now() + kSettleSetupBudget));
  listening.registration.emplace(EventRegistration::acquire(scope, bus));
}

SettleWatch::~SettleWatch() = default;

Settled SettleWatch::settle(const SettleRule& rule, Deadline deadline) {
  Listening& listening = *listening_;
  const bool watched = listening.registration && listening.registration->active();
  QuietWindow window(Clock::now(), rule);
  while (true) {
    // What came during the action, or while asleep, counts as having come now at the
    // earliest: an event dispatched late is still a change after the start.
    sleep_until(listening.context.get(), Clock::now());
    for (const Clock::time_point at : listening.inbox) window.event(at);
    listening.inbox.clear();
    const auto now = Clock::now();
    if (window.over(now) || now >= deadline) return window.outcome(now, watched);
    sleep_until(listening.context.get(), std::min(window.next_look(), deadline));
  }
}

}  // namespace companyos::a11y
