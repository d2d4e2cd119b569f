#include "schedule/trigger_planner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "time_text.h"

namespace companyos::schedule {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using testing::at;
using testing::utc_text;

std::string when(std::optional<std::int64_t> unix_seconds) {
  return unix_seconds ? utc_text(*unix_seconds) : "none";
}

void set_wall(FakeClock& clock, std::string_view local_with_offset) {
  clock.set_wall(std::chrono::system_clock::time_point{seconds{at(local_with_offset)}});
}

ScheduledAutomation automation(std::int64_t id, std::optional<std::string> schedule,
                               std::string zone = "UTC", bool enabled = true) {
  return {id, std::move(schedule), std::move(zone), enabled};
}

TEST(TriggerPlanner, PlansEachAutomationAndTheEarliest) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  struct Row {
    ScheduledAutomation automation;
    std::string_view expected;  // "none" or a local time with offset
  };
  const Row rows[] = {
      {automation(1, "0 9 * * *"), "2026-03-13 09:00 +0000"},
      {automation(2, "30 8 * * *", "Europe/Berlin"), "2026-03-13 08:30 +0100"},
      {automation(3, std::nullopt), "none"},               // manual only
      {automation(4, "* * * * *", "UTC", false), "none"},  // disabled
      {automation(5, "0 0 * * *", "Asia/Jakarta"), "2026-03-14 00:00 +0700"},
  };
  for (const auto& row : rows) ASSERT_TRUE(planner.upsert(row.automation).ok());
  for (const auto& row : rows) {
    SCOPED_TRACE(row.automation.id);
    std::string expected = row.expected == "none" ? "none" : utc_text(at(row.expected));
    EXPECT_EQ(when(planner.next_run_at(row.automation.id)), expected);
  }
  EXPECT_EQ(planner.next_run_at(99), std::nullopt);
  EXPECT_EQ(planner.earliest(), (PlannedTrigger{2, at("2026-03-13 08:30 +0100")}));
  EXPECT_EQ(planner.delay_until_earliest(), milliseconds{minutes{30}});
}

TEST(TriggerPlanner, DueReturnsEachArrivedTriggerOnce) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "30 7 * * *")).ok());
  ASSERT_TRUE(planner.upsert(automation(2, "0 8 * * *")).ok());

  clock.advance(minutes{29} + seconds{59});
  EXPECT_TRUE(planner.due().due.empty());
  EXPECT_EQ(planner.delay_until_earliest(), milliseconds{1000});

  clock.advance(seconds{1});
  auto tick = planner.due();
  EXPECT_EQ(tick.due, (std::vector<PlannedTrigger>{{1, at("2026-03-13 07:30 +0000")}}));
  EXPECT_EQ(tick.clock_jump_seconds, std::nullopt);
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-14 07:30 +0000")));
  EXPECT_TRUE(planner.due().due.empty());
  EXPECT_EQ(planner.earliest(), (PlannedTrigger{2, at("2026-03-13 08:00 +0000")}));
}

TEST(TriggerPlanner, DueOrdersByTimeThenId) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(7, "2 7 * * *")).ok());
  ASSERT_TRUE(planner.upsert(automation(3, "2 7 * * *")).ok());
  ASSERT_TRUE(planner.upsert(automation(5, "1 7 * * *")).ok());
  clock.advance(minutes{5});
  EXPECT_EQ(planner.due().due, (std::vector<PlannedTrigger>{{5, at("2026-03-13 07:01 +0000")},
                                                            {3, at("2026-03-13 07:02 +0000")},
                                                            {7, at("2026-03-13 07:02 +0000")}}));
}

TEST(TriggerPlanner, LateCallFiresOnceNotOncePerMissedMinute) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "* * * * *")).ok());
  clock.advance(minutes{5} + seconds{30});  // the main loop was busy; no clock jump
  auto tick = planner.due();
  EXPECT_EQ(tick.due, (std::vector<PlannedTrigger>{{1, at("2026-03-13 07:01 +0000")}}));
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-13 07:06 +0000")));
}

TEST(TriggerPlanner, WallClockJumpsArePlannedAroundWithoutCatchUp) {
  struct Case {
    std::string_view what;
    std::string_view jump_to;  // wall time after the jump; the steady clock stays
    std::int64_t jump_seconds;
    std::string_view next;  // of "0 9 * * *"
  };
  const Case cases[] = {
      {"clock set forward past 09:00", "2026-03-13 11:00 +0000", 3 * 3600,
       "2026-03-14 09:00 +0000"},
      {"resume after two days asleep", "2026-03-15 10:00 +0000", 50 * 3600,
       "2026-03-16 09:00 +0000"},
      {"clock set forward short of 09:00", "2026-03-13 08:30 +0000", 30 * 60,
       "2026-03-13 09:00 +0000"},
      {"clock set back", "2026-03-13 06:00 +0000", -2 * 3600, "2026-03-13 09:00 +0000"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    FakeClock clock(at("2026-03-13 08:00 +0000"));
    TriggerPlanner planner(clock);
    ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
    set_wall(clock, c.jump_to);
    auto tick = planner.due();
    EXPECT_TRUE(tick.due.empty());
    EXPECT_EQ(tick.clock_jump_seconds, c.jump_seconds);
    EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at(c.next)));
    EXPECT_EQ(planner.due().clock_jump_seconds, std::nullopt);  // reported once
  }
}

TEST(TriggerPlanner, ClockSetBackDoesNotRepeatAFiredTrigger) {
  FakeClock clock(at("2026-03-13 08:59 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  clock.advance(minutes{1});
  ASSERT_EQ(planner.due().due.size(), 1u);

  clock.advance(minutes{1});
  set_wall(clock, "2026-03-13 08:31 +0000");
  auto tick = planner.due();
  EXPECT_EQ(tick.clock_jump_seconds, -30 * 60);
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-14 09:00 +0000")));
  clock.advance(minutes{40});
  EXPECT_TRUE(planner.due().due.empty());
}

TEST(TriggerPlanner, ClockSetBackFarPlansFromTheNewTime) {
  FakeClock clock(at("2026-03-13 08:59 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  clock.advance(minutes{1});
  ASSERT_EQ(planner.due().due.size(), 1u);
  set_wall(clock, "2026-03-12 12:00 +0000");  // beyond the 3 h repeat guard
  EXPECT_EQ(planner.due().clock_jump_seconds, -21 * 3600);
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-13 09:00 +0000")));
}

TEST(TriggerPlanner, SmallStepsAreNotJumps) {
  FakeClock clock(at("2026-03-13 08:59 +0000"));
  TriggerPlanner planner(clock, PlannerOptions{.jump_threshold = seconds{2}});
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  clock.set_wall(clock.wall() + seconds{2});
  EXPECT_EQ(planner.due().clock_jump_seconds, std::nullopt);
  clock.advance(seconds{58});
  auto tick = planner.due();
  EXPECT_EQ(tick.clock_jump_seconds, std::nullopt);
  EXPECT_EQ(tick.due, (std::vector<PlannedTrigger>{{1, at("2026-03-13 09:00 +0000")}}));
}

TEST(TriggerPlanner, JumpSeenDuringAnEditIsReportedByTheNextDue) {
  FakeClock clock(at("2026-03-13 08:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  set_wall(clock, "2026-03-13 10:00 +0000");
  ASSERT_TRUE(planner.upsert(automation(2, "0 12 * * *")).ok());
  auto tick = planner.due();
  EXPECT_TRUE(tick.due.empty());  // 09:00 was skipped by the jump, not caught up
  EXPECT_EQ(tick.clock_jump_seconds, 2 * 3600);
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-14 09:00 +0000")));
}

TEST(TriggerPlanner, FallBackFiresTwice) {
  FakeClock clock(at("2026-10-25 00:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "30 2 * * *", "Europe/Berlin")).ok());
  clock.advance(minutes{30});
  EXPECT_EQ(planner.due().due, (std::vector<PlannedTrigger>{{1, at("2026-10-25 02:30 +0200")}}));
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-10-25 02:30 +0100")));
  clock.advance(hours{1});
  EXPECT_EQ(planner.due().due, (std::vector<PlannedTrigger>{{1, at("2026-10-25 02:30 +0100")}}));
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-10-26 02:30 +0100")));
}

TEST(TriggerPlanner, ReplansAfterEveryChange) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  ASSERT_TRUE(planner.upsert(automation(2, "0 10 * * *")).ok());

  ASSERT_TRUE(planner.upsert(automation(1, "0 8 * * *")).ok());
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-13 08:00 +0000")));

  ASSERT_TRUE(planner.upsert(automation(1, "0 8 * * *", "Europe/Berlin")).ok());
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-14 08:00 +0100")));

  ASSERT_TRUE(planner.upsert(automation(1, "0 8 * * *", "UTC", false)).ok());
  EXPECT_EQ(planner.next_run_at(1), std::nullopt);
  EXPECT_EQ(planner.earliest(), (PlannedTrigger{2, at("2026-03-13 10:00 +0000")}));

  ASSERT_TRUE(planner.upsert(automation(1, std::nullopt)).ok());
  EXPECT_EQ(planner.next_run_at(1), std::nullopt);

  planner.remove(2);
  EXPECT_EQ(planner.next_run_at(2), std::nullopt);
  EXPECT_EQ(planner.earliest(), std::nullopt);
  EXPECT_EQ(planner.delay_until_earliest(), std::nullopt);
}

TEST(TriggerPlanner, RefusedEditLeavesThePlanAsItWas) {
  struct Bad {
    ScheduledAutomation automation;
    std::string_view message_start;
  };
  const Bad cases[] = {
      {automation(1, "0 25 * * *"), "schedule: field 2 (hour)"},
      {automation(1, "0 0 31 2 *"), "schedule: \"0 0 31 2 *\" never fires"},
      {automation(1, "0 9 * * *", "Europe/Nowhere"), "timezone \"Europe/Nowhere\""},
      {automation(1, ""), "schedule: empty expression"},
  };
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.message_start));
    auto status = planner.upsert(c.automation);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(status.error().message.rfind(c.message_start, 0), 0u) << status.error().message;
    EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-13 09:00 +0000")));
  }
}

TEST(TriggerPlanner, StopAllClearsEveryNextRunAndResumesWithoutCatchUp) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 9 * * *")).ok());
  ASSERT_TRUE(planner.upsert(automation(2, "*/10 * * * *")).ok());

  planner.set_automations_enabled(false);
  EXPECT_EQ(planner.next_run_at(1), std::nullopt);
  EXPECT_EQ(planner.next_run_at(2), std::nullopt);
  EXPECT_EQ(planner.earliest(), std::nullopt);
  ASSERT_TRUE(planner.upsert(automation(3, "* * * * *")).ok());
  EXPECT_EQ(planner.next_run_at(3), std::nullopt);

  clock.advance(hours{3});
  EXPECT_TRUE(planner.due().due.empty());

  planner.set_automations_enabled(true);
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-14 09:00 +0000")));
  EXPECT_EQ(when(planner.next_run_at(2)), utc_text(at("2026-03-13 10:10 +0000")));
  EXPECT_EQ(when(planner.next_run_at(3)), utc_text(at("2026-03-13 10:01 +0000")));
  EXPECT_TRUE(planner.due().due.empty());
}

TEST(TriggerPlanner, ReplanUsesTheCurrentTime) {
  FakeClock clock(at("2026-03-13 07:00 +0000"));
  TriggerPlanner planner(clock);
  ASSERT_TRUE(planner.upsert(automation(1, "0 * * * *")).ok());
  clock.advance(hours{2} + minutes{30});
  planner.replan();  // e.g. on a resume notification; no trigger is caught up
  EXPECT_EQ(when(planner.next_run_at(1)), utc_text(at("2026-03-13 10:00 +0000")));
  EXPECT_TRUE(planner.due().due.empty());
}

}  // namespace
}  // namespace companyos::schedule
