#include "schedule/shortest_gap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "time_text.h"

namespace companyos::schedule {
namespace {

using testing::at;
using testing::utc_text;

constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 86400;

TEST(ShortestGap, OverAYearIncludingDstChanges) {
  struct Case {
    std::string_view expression;
    std::string_view zone;
    std::string_view start;
    std::int64_t seconds;
    std::string_view from;  // where the shortest gap starts; empty: anywhere
  };
  const Case cases[] = {
      {"* * * * *", "UTC", "2026-01-01 00:00 +0000", 60, "2026-01-01 00:00 +0000"},
      {"* * * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", 60, ""},
      {"*/2 * * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", 120, ""},
      {"0 * * * *", "UTC", "2026-01-01 00:00 +0000", kHour, ""},
      {"0 * * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", kHour, ""},
      {"0 0 * * *", "UTC", "2026-01-01 00:00 +0000", kDay, ""},
      {"30 2 * * *", "Asia/Jakarta", "2026-01-01 00:00 +0700", kDay, ""},
      // A daily time inside the repeated hour fires twice, an hour apart.
      {"30 2 * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", kHour, "2026-10-25 02:30 +0200"},
      {"30 1 * * *", "America/New_York", "2026-01-01 00:00 -0500", kHour, "2026-11-01 01:30 -0400"},
      {"30 1 * * *", "Australia/Lord_Howe", "2026-01-01 00:00 +1100", 30 * 60,
       "2026-04-05 01:30 +1100"},
      // The short night of the spring change.
      {"0 3 * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", 23 * kHour,
       "2026-03-28 03:00 +0100"},
      {"0 3 * * *", "Australia/Lord_Howe", "2026-01-01 00:00 +1100", 23 * kHour + 30 * 60,
       "2026-10-03 03:00 +1030"},
      {"0 1,3 * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", kHour, "2026-03-29 01:00 +0100"},
      {"0,59 1,3 * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", 60, "2026-03-29 01:59 +0100"},
      {"30 1,2 * * *", "Europe/Berlin", "2026-01-01 00:00 +0100", kHour, ""},
      // Sparse expressions: the gap to the trigger after the year counts too.
      {"0 0 1 1 *", "UTC", "2026-01-01 00:00 +0000", 365 * kDay, "2026-01-01 00:00 +0000"},
      {"0 0 1 1 *", "UTC", "2027-06-01 00:00 +0000", 366 * kDay, "2028-01-01 00:00 +0000"},
      {"0 0 29 2 *", "UTC", "2026-01-01 00:00 +0000", 1461 * kDay, "2028-02-29 00:00 +0000"},
      {"0,1 2 29 3 *", "Europe/Berlin", "2026-01-01 00:00 +0100", 60, "2027-03-29 02:00 +0200"},
      {"0 9 * * 1-5", "Europe/Berlin", "2026-01-01 00:00 +0100", kDay, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.expression) + " in " + std::string(c.zone));
    auto schedule = Schedule::create(c.expression, c.zone);
    ASSERT_TRUE(schedule.ok()) << schedule.error().message;
    auto gap = shortest_gap(*schedule, at(c.start));
    ASSERT_TRUE(gap.ok()) << gap.error().message;
    EXPECT_EQ(gap->seconds, c.seconds);
    EXPECT_EQ(gap->to_unix - gap->from_unix, gap->seconds);
    if (!c.from.empty()) {
      EXPECT_EQ(utc_text(gap->from_unix), utc_text(at(c.from)));
    }
  }
}

// The day-skipping walk must find what visiting every trigger of the year finds.
TEST(ShortestGap, AgreesWithVisitingEveryTrigger) {
  const std::string_view expressions[] = {
      "*/7 * * * *",     "0,59 1,3 * * *", "30 2 * * *",  "*/20 1-3 * * *",
      "15,45 0-4 * * 0", "0 0 29 2 *",     "0 2 * * *",   "59 23 * * *",
      "0 0,12 1,15 * *", "*/30 * * * 1-5", "0 1,2 * * *", "45 0-2 * * 6,7",
  };
  const std::string_view zones[] = {
      "UTC",          "Europe/Berlin",    "America/New_York", "Australia/Lord_Howe",
      "Asia/Jakarta", "America/Santiago", "Antarctica/Troll", "Pacific/Chatham"};
  const std::int64_t start = at("2026-02-10 13:17 +0000");
  for (std::string_view expression : expressions) {
    for (std::string_view zone : zones) {
      SCOPED_TRACE(std::string(expression) + " in " + std::string(zone));
      auto schedule = Schedule::create(expression, zone);
      ASSERT_TRUE(schedule.ok());
      std::int64_t shortest = INT64_MAX;
      auto current = schedule->next_after(start - 1);
      ASSERT_TRUE(current.has_value());
      for (;;) {
        auto next = schedule->next_after(*current);
        ASSERT_TRUE(next.has_value());
        shortest = std::min(shortest, *next - *current);
        if (*next >= start + 366 * kDay) break;
        current = next;
      }
      auto gap = shortest_gap(*schedule, start);
      ASSERT_TRUE(gap.ok());
      EXPECT_EQ(gap->seconds, shortest);
    }
  }
}

TEST(ShortestGap, RefusesAStartOutsideTheSupportedRange) {
  auto schedule = Schedule::create("* * * * *", "UTC");
  ASSERT_TRUE(schedule.ok());
  for (std::int64_t start :
       {kEarliestSupported - 1, kLatestSupported, kLatestSupported - 100 * kDay}) {
    SCOPED_TRACE(start);
    auto gap = shortest_gap(*schedule, start);
    ASSERT_FALSE(gap.ok());
    EXPECT_EQ(gap.error().code, ErrorCode::kInvalidArgs);
  }
}

}  // namespace
}  // namespace companyos::schedule
