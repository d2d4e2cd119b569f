#include "schedule/retry_budget.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "time_text.h"

namespace companyos::schedule {
namespace {

using testing::at;

struct RetryBudgetCase {
  std::string_view expression;
  std::string_view zone;
  std::int64_t max_retries;
  std::int64_t retry_interval_seconds;
  bool accepted;
};

TEST(ValidateRetryBudget, BudgetMustBeShorterThanTheShortestGap) {
  const RetryBudgetCase cases[] = {
      {"* * * * *", "UTC", 0, 10, true},   // no retries: nothing to fit
      {"* * * * *", "UTC", 5, 11, true},   // 55 s < 60 s
      {"* * * * *", "UTC", 5, 12, false},  // 60 s is not shorter than 60 s
      {"*/5 * * * *", "UTC", 2, 149, true},
      {"*/5 * * * *", "UTC", 2, 150, false},
      {"0 * * * *", "Europe/Berlin", 3, 1199, true},
      {"0 * * * *", "Europe/Berlin", 3, 1200, false},
      // Daily at 02:30: 24 h apart, except one hour on the October change in Berlin.
      {"30 2 * * *", "Asia/Jakarta", 5, 17000, true},
      {"30 2 * * *", "Europe/Berlin", 5, 17000, false},
      {"30 2 * * *", "Europe/Berlin", 5, 719, true},
      {"30 2 * * *", "Europe/Berlin", 1, 3599, true},
      {"30 2 * * *", "Europe/Berlin", 1, 3600, false},
      // 01:59 and 03:00 are one minute apart on the March change in Berlin.
      {"0,59 1,3 * * *", "UTC", 1, 3000, true},
      {"0,59 1,3 * * *", "Europe/Berlin", 1, 3000, false},
      {"0,59 1,3 * * *", "Europe/Berlin", 1, 59, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.expression) + " in " + std::string(c.zone) + ": " +
                 std::to_string(c.max_retries) + " x " + std::to_string(c.retry_interval_seconds));
    auto schedule = Schedule::create(c.expression, c.zone);
    ASSERT_TRUE(schedule.ok()) << schedule.error().message;
    auto status = validate_retry_budget(*schedule, c.max_retries, c.retry_interval_seconds,
                                        at("2026-01-01 00:00 +0000"));
    EXPECT_EQ(status.ok(), c.accepted) << (status.ok() ? "" : status.error().message);
    if (!status.ok()) {
      EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgs);
    }
  }
}

TEST(ValidateRetryBudget, MessageNamesBothNumbersAndTheGap) {
  auto schedule = Schedule::create("30 2 * * *", "Europe/Berlin");
  ASSERT_TRUE(schedule.ok());
  auto status = validate_retry_budget(*schedule, 3, 1200, at("2026-01-01 00:00 +0000"));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message,
            "retry budget: maxRetries 3 x retryIntervalSeconds 1200 = 3600 s is not shorter than "
            "the shortest gap between two triggers of \"30 2 * * *\" in Europe/Berlin: 3600 s "
            "(2026-10-25T00:30:00Z to 2026-10-25T01:30:00Z)");
  const auto& details = status.error().details;
  EXPECT_EQ(details.value("max_retries", 0), 3);
  EXPECT_EQ(details.value("retry_interval_seconds", 0), 1200);
  EXPECT_EQ(details.value("budget_seconds", 0), 3600);
  EXPECT_EQ(details.value("shortest_gap_seconds", 0), 3600);
  EXPECT_EQ(details.value("gap_from", std::int64_t{0}), at("2026-10-25 02:30 +0200"));
  EXPECT_EQ(status.error().suggestion,
            "lower maxRetries or retryIntervalSeconds so their product is below 3600 s "
            "(with maxRetries 3, retryIntervalSeconds at most 1199)");
}

TEST(ValidateRetryBudget, RefusesNumbersOutOfRange) {
  struct Bad {
    std::int64_t max_retries;
    std::int64_t retry_interval_seconds;
    std::string_view message;
  };
  const Bad cases[] = {
      {-1, 10, "maxRetries -1 is out of range 0-5"},
      {6, 10, "maxRetries 6 is out of range 0-5"},
      {1, 0, "retryIntervalSeconds 0 is out of range 1-86400"},
      {1, -5, "retryIntervalSeconds -5 is out of range 1-86400"},
      {1, 86401, "retryIntervalSeconds 86401 is out of range 1-86400"},
      {0, 0, "retryIntervalSeconds 0 is out of range 1-86400"},
  };
  auto schedule = Schedule::create("@daily", "UTC");
  ASSERT_TRUE(schedule.ok());
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.message));
    auto status = validate_retry_budget(*schedule, c.max_retries, c.retry_interval_seconds,
                                        at("2026-01-01 00:00 +0000"));
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(status.error().message, c.message);
  }
}

TEST(ValidateRetryBudget, DailyScheduleLosesAnHourInSpring) {
  auto schedule = Schedule::create("@daily", "Europe/Berlin");
  ASSERT_TRUE(schedule.ok());
  // Midnight to midnight across the March change is 23 h.
  EXPECT_TRUE(validate_retry_budget(*schedule, 5, 16559, at("2026-01-01 00:00 +0000")).ok());
  EXPECT_FALSE(validate_retry_budget(*schedule, 5, 16560, at("2026-01-01 00:00 +0000")).ok());
}

}  // namespace
}  // namespace companyos::schedule
