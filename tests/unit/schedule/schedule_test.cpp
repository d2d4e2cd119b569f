#include "schedule/schedule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "time_text.h"

namespace companyos::schedule {
namespace {

using testing::at;
using testing::utc_text;

struct ScheduleCase {
  std::string_view expression;
  std::string_view zone;
  std::string_view after;  // local time with offset, see time_text.h
  std::vector<std::string_view> expected;
};

void expect_triggers(const ScheduleCase& c) {
  SCOPED_TRACE(std::string(c.expression) + " in " + std::string(c.zone) + " after " +
               std::string(c.after));
  auto schedule = Schedule::create(c.expression, c.zone);
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;
  std::int64_t previous = at(c.after);
  for (std::string_view expected : c.expected) {
    auto next = schedule->next_after(previous);
    ASSERT_TRUE(next.has_value()) << "expected " << expected;
    EXPECT_EQ(utc_text(*next), utc_text(at(expected))) << "expected " << expected;
    previous = *next;
  }
}

TEST(NextAfter, Utc) {
  const ScheduleCase cases[] = {
      {"*/15 * * * *",
       "UTC",
       "2026-01-01 00:00 +0000",
       {"2026-01-01 00:15 +0000", "2026-01-01 00:30 +0000", "2026-01-01 00:45 +0000",
        "2026-01-01 01:00 +0000"}},
      {"0 0 * * *", "UTC", "2026-01-01 00:00 +0000", {"2026-01-02 00:00 +0000"}},  // strictly after
      {"0 0 1 1 *",
       "UTC",
       "2026-06-01 00:00 +0000",
       {"2027-01-01 00:00 +0000", "2028-01-01 00:00 +0000"}},
      {"@hourly",
       "UTC",
       "2026-12-31 23:30 +0000",
       {"2027-01-01 00:00 +0000", "2027-01-01 01:00 +0000"}},
      {"30 2 * * *",
       "UTC",
       "2026-03-28 12:00 +0000",
       {"2026-03-29 02:30 +0000", "2026-03-30 02:30 +0000"}},  // UTC has no DST
  };
  for (const auto& c : cases) expect_triggers(c);
}

TEST(NextAfter, StartsStrictlyAfterAPartialMinute) {
  auto schedule = Schedule::create("* * * * *", "UTC");
  ASSERT_TRUE(schedule.ok());
  EXPECT_EQ(schedule->next_after(at("2026-01-01 00:00 +0000") + 30), at("2026-01-01 00:01 +0000"));
  EXPECT_EQ(schedule->next_after(at("2026-01-01 00:00 +0000") - 1), at("2026-01-01 00:00 +0000"));
}

// Europe/Berlin: 2026-03-29 and 2027-03-28 02:00 CET -> 03:00 CEST;
// 2026-10-25 and 2027-10-31 03:00 CEST -> 02:00 CET.
TEST(NextAfter, EuropeBerlinAcrossBothChanges) {
  const ScheduleCase cases[] = {
      {"30 2 * * *",
       "Europe/Berlin",
       "2026-03-27 12:00 +0100",
       {"2026-03-28 02:30 +0100", "2026-03-30 02:30 +0200",
        "2026-03-31 02:30 +0200"}},  // 29th: gap
      {"30 2 * * *",
       "Europe/Berlin",
       "2026-10-24 12:00 +0200",
       {"2026-10-25 02:30 +0200", "2026-10-25 02:30 +0100", "2026-10-26 02:30 +0100"}},  // twice
      {"30 2 * * *",
       "Europe/Berlin",
       "2027-03-27 12:00 +0100",
       {"2027-03-29 02:30 +0200", "2027-03-30 02:30 +0200"}},
      {"30 2 * * *",
       "Europe/Berlin",
       "2027-10-30 12:00 +0200",
       {"2027-10-31 02:30 +0200", "2027-10-31 02:30 +0100", "2027-11-01 02:30 +0100"}},
      {"0 2 * * *",
       "Europe/Berlin",
       "2026-03-28 12:00 +0100",
       {"2026-03-30 02:00 +0200"}},  // 02:00 itself is the first minute that does not exist
      {"0 3 * * *",
       "Europe/Berlin",
       "2026-03-28 12:00 +0100",
       {"2026-03-29 03:00 +0200", "2026-03-30 03:00 +0200"}},
      {"0 * * * *",
       "Europe/Berlin",
       "2026-03-29 00:30 +0100",
       {"2026-03-29 01:00 +0100", "2026-03-29 03:00 +0200", "2026-03-29 04:00 +0200"}},
      {"0 * * * *",
       "Europe/Berlin",
       "2026-10-25 00:30 +0200",
       {"2026-10-25 01:00 +0200", "2026-10-25 02:00 +0200", "2026-10-25 02:00 +0100",
        "2026-10-25 03:00 +0100"}},
      {"*/30 2 * * *",
       "Europe/Berlin",
       "2026-10-25 01:00 +0200",
       {"2026-10-25 02:00 +0200", "2026-10-25 02:30 +0200", "2026-10-25 02:00 +0100",
        "2026-10-25 02:30 +0100", "2026-10-26 02:00 +0100"}},
      {"30 2 29 3 *",
       "Europe/Berlin",
       "2026-01-01 00:00 +0100",
       {"2027-03-29 02:30 +0200"}},  // 2026-03-29 02:30 does not exist
  };
  for (const auto& c : cases) expect_triggers(c);
}

// America/New_York: 2026-03-08 02:00 EST -> 03:00 EDT; 2026-11-01 02:00 EDT -> 01:00 EST.
TEST(NextAfter, AmericaNewYorkAcrossBothChanges) {
  const ScheduleCase cases[] = {
      {"30 2 * * *",
       "America/New_York",
       "2026-03-07 12:00 -0500",
       {"2026-03-09 02:30 -0400", "2026-03-10 02:30 -0400"}},
      {"30 1 * * *",
       "America/New_York",
       "2026-10-31 12:00 -0400",
       {"2026-11-01 01:30 -0400", "2026-11-01 01:30 -0500", "2026-11-02 01:30 -0500"}},
      {"0 1-3 * * *",
       "America/New_York",
       "2026-11-01 00:00 -0400",
       {"2026-11-01 01:00 -0400", "2026-11-01 01:00 -0500", "2026-11-01 02:00 -0500",
        "2026-11-01 03:00 -0500", "2026-11-02 01:00 -0500"}},
      {"0 1-3 * * *",
       "America/New_York",
       "2026-03-08 00:00 -0500",
       {"2026-03-08 01:00 -0500", "2026-03-08 03:00 -0400", "2026-03-09 01:00 -0400"}},
  };
  for (const auto& c : cases) expect_triggers(c);
}

// Australia/Lord_Howe moves by 30 minutes: 2026-04-05 02:00 +1100 -> 01:30 +1030;
// 2026-10-04 02:00 +1030 -> 02:30 +1100.
TEST(NextAfter, AustraliaLordHoweHalfHourChanges) {
  const ScheduleCase cases[] = {
      {"30 1 * * *",
       "Australia/Lord_Howe",
       "2026-04-04 12:00 +1100",
       {"2026-04-05 01:30 +1100", "2026-04-05 01:30 +1030", "2026-04-06 01:30 +1030"}},
      {"45 1 * * *",
       "Australia/Lord_Howe",
       "2026-04-04 12:00 +1100",
       {"2026-04-05 01:45 +1100", "2026-04-05 01:45 +1030"}},
      {"0 2 * * *",
       "Australia/Lord_Howe",
       "2026-04-04 12:00 +1100",
       {"2026-04-05 02:00 +1030", "2026-04-06 02:00 +1030"}},  // once: 02:00 +1100 never shows
      {"15 2 * * *",
       "Australia/Lord_Howe",
       "2026-10-03 12:00 +1030",
       {"2026-10-05 02:15 +1100"}},  // 02:15 falls in the gap on the 4th
      {"*/15 2 * * *",
       "Australia/Lord_Howe",
       "2026-10-04 01:50 +1030",
       {"2026-10-04 02:30 +1100", "2026-10-04 02:45 +1100", "2026-10-05 02:00 +1100"}},
  };
  for (const auto& c : cases) expect_triggers(c);
}

TEST(NextAfter, AsiaJakartaHasNoChanges) {
  const ScheduleCase cases[] = {
      {"30 2 * * *",
       "Asia/Jakarta",
       "2026-03-28 12:00 +0700",
       {"2026-03-29 02:30 +0700", "2026-03-30 02:30 +0700"}},
      {"0 9 * * 1-5",
       "Asia/Jakarta",
       "2026-03-27 10:00 +0700",  // a Friday
       {"2026-03-30 09:00 +0700", "2026-03-31 09:00 +0700"}},
      {"30 1 * * *",
       "Asia/Jakarta",
       "2026-10-31 12:00 +0700",
       {"2026-11-01 01:30 +0700", "2026-11-02 01:30 +0700"}},
  };
  for (const auto& c : cases) expect_triggers(c);
}

TEST(NextAfter, MonthEndsAndLeapDays) {
  const ScheduleCase cases[] = {
      {"0 0 31 * *",
       "UTC",
       "2026-04-01 00:00 +0000",
       {"2026-05-31 00:00 +0000", "2026-07-31 00:00 +0000", "2026-08-31 00:00 +0000",
        "2026-10-31 00:00 +0000", "2026-12-31 00:00 +0000", "2027-01-31 00:00 +0000"}},
      {"0 12 30 * *",
       "Europe/Berlin",
       "2026-02-01 00:00 +0100",
       {"2026-03-30 12:00 +0200", "2026-04-30 12:00 +0200"}},
      {"0 0 29 2 *",
       "UTC",
       "2026-01-01 00:00 +0000",
       {"2028-02-29 00:00 +0000", "2032-02-29 00:00 +0000"}},
      {"0 0 29 2 *", "UTC", "2097-01-01 00:00 +0000", {"2104-02-29 00:00 +0000"}},  // 2100: no leap
      {"0 0 29 feb *", "Asia/Jakarta", "2027-06-01 00:00 +0700", {"2028-02-29 00:00 +0700"}},
      {"0 0 28-31 2 *",
       "UTC",
       "2027-02-27 00:00 +0000",
       {"2027-02-28 00:00 +0000", "2028-02-28 00:00 +0000", "2028-02-29 00:00 +0000"}},
  };
  for (const auto& c : cases) expect_triggers(c);
}

// 2026-03-13 is a Friday.
TEST(NextAfter, DayOfMonthOrDayOfWeek) {
  const ScheduleCase cases[] = {
      {"0 0 13 * 5",
       "UTC",
       "2026-03-01 00:00 +0000",
       {"2026-03-06 00:00 +0000", "2026-03-13 00:00 +0000", "2026-03-20 00:00 +0000",
        "2026-03-27 00:00 +0000", "2026-04-03 00:00 +0000", "2026-04-10 00:00 +0000",
        "2026-04-13 00:00 +0000", "2026-04-17 00:00 +0000"}},
      {"0 0 13 * *",
       "UTC",
       "2026-03-01 00:00 +0000",
       {"2026-03-13 00:00 +0000", "2026-04-13 00:00 +0000"}},
      {"0 0 */2 * fri",
       "UTC",
       "2026-03-01 00:00 +0000",  // '*' first: odd day AND Friday
       {"2026-03-13 00:00 +0000", "2026-03-27 00:00 +0000", "2026-04-03 00:00 +0000",
        "2026-04-17 00:00 +0000"}},
      {"0 0 1 * mon",
       "UTC",
       "2026-06-01 00:00 +0000",  // June 1st is a Monday
       {"2026-06-08 00:00 +0000", "2026-06-15 00:00 +0000", "2026-06-22 00:00 +0000",
        "2026-06-29 00:00 +0000", "2026-07-01 00:00 +0000", "2026-07-06 00:00 +0000"}},
  };
  for (const auto& c : cases) expect_triggers(c);
}

TEST(NextAfter, NothingOutsideTheSupportedRange) {
  auto schedule = Schedule::create("* * * * *", "UTC");
  ASSERT_TRUE(schedule.ok());
  EXPECT_EQ(schedule->next_after(kLatestSupported + 1), std::nullopt);
  EXPECT_EQ(schedule->next_after(kEarliestSupported - 1), std::nullopt);
  EXPECT_EQ(schedule->next_after(INT64_MAX), std::nullopt);
  EXPECT_EQ(schedule->next_after(INT64_MIN), std::nullopt);
  EXPECT_EQ(schedule->next_after(kLatestSupported), std::nullopt);
}

TEST(NextOccurrence, ParsesAndComputesInOneCall) {
  auto next = next_occurrence("30 2 * * *", "Europe/Berlin", at("2026-10-25 02:30 +0200"));
  ASSERT_TRUE(next.ok()) << next.error().message;
  EXPECT_EQ(*next, at("2026-10-25 02:30 +0100"));
}

TEST(NextOccurrence, RefusesBadInput) {
  struct Bad {
    std::string_view expression;
    std::string_view zone;
    std::int64_t after;
    std::string_view message_start;
  };
  const Bad cases[] = {
      {"0 25 * * *", "UTC", 0, "schedule: field 2 (hour)"},
      {"0 0 31 2 *", "UTC", 0, "schedule: \"0 0 31 2 *\" never fires"},
      {"* * * * *", "Mars/Olympus", 0, "timezone \"Mars/Olympus\""},
      {"* * * * *", "UTC", kLatestSupported + 1, "schedule: start time"},
      {"0 0 29 2 *", "UTC", at("9997-01-01 00:00 +0000"), "schedule: \"0 0 29 2 *\" does not fire"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.expression) + " in " + std::string(c.zone));
    auto next = next_occurrence(c.expression, c.zone, c.after);
    ASSERT_FALSE(next.ok());
    EXPECT_EQ(next.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(next.error().message.rfind(c.message_start, 0), 0u) << next.error().message;
  }
}

}  // namespace
}  // namespace companyos::schedule
