// The timerfd behind the trigger loop, on a private GLib context and the real wall clock:
// it fires at an absolute wall time, re-arming replaces the time, and disarming silences it.
// (A clock set, reported as kClockSet, needs CAP_SYS_TIME and is not exercised here.)
#include "daemon/services/realtime_timer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <vector>

namespace companyos::daemon {
namespace {

using Event = RealtimeTimer::Event;

struct ContextDeleter {
  void operator()(GMainContext* context) const { g_main_context_unref(context); }
};

struct SourceDeleter {
  void operator()(GSource* source) const {
    g_source_destroy(source);
    g_source_unref(source);
  }
};

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class RealtimeTimerTest : public ::testing::Test {
 protected:
  RealtimeTimerTest() : context_(g_main_context_new()) {
    auto timer = RealtimeTimer::create(context_.get());
    EXPECT_TRUE(timer.ok());
    timer_ = std::move(timer).value();
    timer_->on_event([this](Event event) {
      events_.push_back(event);
      fired_at_.push_back(std::chrono::system_clock::now());
    });
  }

  // Runs the context until an event arrives, or gives up after `limit` (a guard source on
  // the same context, so the loop sleeps in poll rather than spinning).
  void run_until_event(std::chrono::milliseconds limit) {
    bool gave_up = false;
    std::unique_ptr<GSource, SourceDeleter> guard(g_timeout_source_new(static_cast<guint>(limit.count())));
    g_source_set_callback(
        guard.get(),
        [](gpointer flag) -> gboolean {
          *static_cast<bool*>(flag) = true;
          return G_SOURCE_REMOVE;
        },
        &gave_up, nullptr);
    g_source_attach(guard.get(), context_.get());
    const auto before = events_.size();
    while (events_.size() == before && !gave_up) g_main_context_iteration(context_.get(), TRUE);
  }

  std::unique_ptr<GMainContext, ContextDeleter> context_;
  std::unique_ptr<RealtimeTimer> timer_;
  std::vector<Event> events_;
  std::vector<std::chrono::system_clock::time_point> fired_at_;
};

TEST_F(RealtimeTimerTest, FiresAtTheWallTimeItWasArmedFor) {
  const std::int64_t at = unix_now() + 1;
  timer_->arm(at);
  run_until_event(std::chrono::seconds{5});
  ASSERT_EQ(events_, std::vector<Event>{Event::kExpired});
  EXPECT_GE(fired_at_[0], std::chrono::system_clock::time_point{std::chrono::seconds{at}});
}

TEST_F(RealtimeTimerTest, ATimeAlreadyPastFiresAtOnce) {
  timer_->arm(unix_now() - 30);
  run_until_event(std::chrono::seconds{2});
  EXPECT_EQ(events_, std::vector<Event>{Event::kExpired});
}

TEST_F(RealtimeTimerTest, ArmingAgainReplacesTheTimeAndDisarmingSilencesIt) {
  timer_->arm(unix_now() - 30);  // would fire at once
  timer_->arm(std::nullopt);
  const std::int64_t later = unix_now() + 2;
  timer_->arm(later);
  run_until_event(std::chrono::seconds{6});
  ASSERT_EQ(events_, std::vector<Event>{Event::kExpired}) << "one event, for the last time armed";
  EXPECT_GE(fired_at_[0], std::chrono::system_clock::time_point{std::chrono::seconds{later}});
}

}  // namespace
}  // namespace companyos::daemon
