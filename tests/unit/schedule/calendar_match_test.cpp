#include "schedule/calendar_match.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "time_text.h"

namespace companyos::schedule {
namespace {

using testing::local;

CronExpression cron(std::string_view text) {
  auto parsed = parse_cron(text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? parsed.value() : CronExpression{};
}

date::year_month_day day(int y, unsigned m, unsigned d) {
  return date::year{y} / date::month{m} / date::day{d};
}

std::string text(std::optional<date::local_seconds> when) {
  return when ? date::format("%F %R", *when) : "none";
}

// 2026-03-13 is a Friday, 2026-03-14 a Saturday, 2026-03-15 a Sunday.
TEST(DayMatches, FollowsTheVixieDayOfMonthDayOfWeekRule) {
  struct Case {
    std::string_view expression;
    date::year_month_day day;
    bool expected;
  };
  const Case cases[] = {
      // Both fields restricted: either one selects the day.
      {"0 0 13 * fri", day(2026, 3, 13), true},    // both
      {"0 0 13 * fri", day(2026, 2, 13), true},    // the 13th, a Friday too
      {"0 0 13 * fri", day(2026, 3, 20), true},    // a Friday only
      {"0 0 13 * fri", day(2026, 4, 13), true},    // the 13th only (a Monday)
      {"0 0 13 * fri", day(2026, 3, 14), false},   // neither
      {"0 0 1,15 * mon", day(2026, 3, 16), true},  // Monday
      {"0 0 1,15 * mon", day(2026, 3, 15), true},  // the 15th, a Sunday
      {"0 0 1,15 * mon", day(2026, 3, 17), false},
      // One field '*': only the other one counts.
      {"0 0 13 * *", day(2026, 3, 13), true},
      {"0 0 13 * *", day(2026, 3, 20), false},
      {"0 0 * * fri", day(2026, 3, 20), true},
      {"0 0 * * fri", day(2026, 3, 13), true},
      {"0 0 * * fri", day(2026, 3, 14), false},
      // A field that starts with '*' (here */2) makes both required, as in Vixie cron.
      {"0 0 */2 * fri", day(2026, 3, 13), true},   // odd day and Friday
      {"0 0 */2 * fri", day(2026, 3, 20), false},  // Friday but an even day
      {"0 0 */2 * fri", day(2026, 3, 15), false},  // odd day but Sunday
      {"0 0 1 * */2", day(2026, 3, 1), true},      // the 1st, a Sunday (day 0)
      {"0 0 1 * */2", day(2026, 4, 1), false},     // the 1st, a Wednesday (day 3)
      {"0 0 1 * */2", day(2026, 3, 3), false},     // Tuesday (day 2), not the 1st
      // Month restricts in every case.
      {"0 0 13 jan fri", day(2026, 3, 13), false},
      {"0 0 * feb *", day(2028, 2, 29), true},
      // Day 7 is Sunday.
      {"0 0 * * 7", day(2026, 3, 15), true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.expression) + " on " + date::format("%F", date::sys_days{c.day}));
    EXPECT_EQ(day_matches(cron(c.expression), c.day), c.expected);
  }
}

TEST(FirstMatch, FindsTheFirstSelectedLocalMinute) {
  struct Case {
    std::string_view expression;
    std::string_view from;
    std::string_view until;
    std::string_view expected;
  };
  const Case cases[] = {
      {"* * * * *", "2026-03-13 10:00", "2026-03-14 00:00",
       "2026-03-13 10:00"},  // from is inclusive
      {"*/15 * * * *", "2026-03-13 10:01", "2026-03-14 00:00", "2026-03-13 10:15"},
      {"0 9 * * *", "2026-03-13 09:01", "2026-03-20 00:00", "2026-03-14 09:00"},
      {"59 23 31 12 *", "2026-03-13 00:00", "2030-01-01 00:00", "2026-12-31 23:59"},
      {"0 0 31 * *", "2026-04-01 00:00", "2027-01-01 00:00",
       "2026-05-31 00:00"},  // April has 30 days
      {"0 0 29 2 *", "2026-03-01 00:00", "2030-01-01 00:00", "2028-02-29 00:00"},
      {"0 0 29 2 *", "2096-03-01 00:00", "2110-01-01 00:00",
       "2104-02-29 00:00"},  // 2100 is no leap year
      {"30 2 * * 1-5", "2026-03-13 03:00", "2026-03-20 00:00", "2026-03-16 02:30"},  // Fri -> Mon
      {"0 12 13 * fri", "2026-03-14 00:00", "2026-04-30 00:00", "2026-03-20 12:00"},
      {"0 0 */2 * fri", "2026-03-14 00:00", "2026-12-31 00:00", "2026-03-27 00:00"},  // odd Friday
      {"0 0 * * *", "2026-03-13 00:00", "2026-03-13 00:00", "none"},                  // empty range
      {"0 9 * * *", "2026-03-13 09:01", "2026-03-14 09:00", "none"},  // until is exclusive
      {"0 0 1 1 *", "2026-03-13 00:00", "2026-12-31 23:59", "none"},
      {"30 2 * * *", "2026-03-13 02:30:01", "2026-03-15 00:00",
       "2026-03-14 02:30"},  // seconds round up
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.expression) + " from " + std::string(c.from));
    EXPECT_EQ(text(first_match(cron(c.expression), local(c.from), local(c.until))), c.expected);
  }
}

TEST(FirstMatch, FindsNothingForAnEmptyExpression) {
  EXPECT_EQ(first_match(CronExpression{}, local("2026-01-01 00:00"), local("2027-01-01 00:00")),
            std::nullopt);
}

}  // namespace
}  // namespace companyos::schedule
