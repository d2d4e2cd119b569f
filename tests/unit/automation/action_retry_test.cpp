#include "automation/action_retry.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace companyos::automation {
namespace {

using namespace std::chrono_literals;

Definition with_retries(int max_retries, int interval) {
  Definition definition;
  definition.max_retries = max_retries;
  definition.retry_interval_seconds = interval;
  return definition;
}

TEST(ActionRetry, PolicyComesFromTheDefinitionAndOutOfRangeNumbersAreClamped) {
  struct Row {
    int max_retries, interval, attempts;
    std::chrono::seconds wait;
  };
  const Row rows[] = {
      {0, 10, 1, 10s},     {5, 86400, 6, 86400s}, {2, 1, 3, 1s},
      {-3, 0, 1, 1s},      {9, 100000, 6, 86400s}, {1, -5, 2, 1s},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::to_string(row.max_retries) + " x " + std::to_string(row.interval));
    const RetryPolicy policy = retry_policy(with_retries(row.max_retries, row.interval));
    EXPECT_EQ(policy.attempts, row.attempts);
    EXPECT_EQ(policy.interval, row.wait);
  }
}

TEST(ActionRetry, ARetryFollowsOnlyWhileAttemptsAreLeftAndItsWaitEndsBeforeTheNextTrigger) {
  const RetryPolicy policy{3, 10s};  // two retries
  constexpr std::int64_t now = 1'000;
  struct Row {
    int attempt;
    std::optional<std::int64_t> next_trigger;
    RetryVerdict verdict;
  };
  const Row rows[] = {
      {1, std::nullopt, RetryVerdict::kRetry},
      {2, std::nullopt, RetryVerdict::kRetry},
      {3, std::nullopt, RetryVerdict::kNoAttemptsLeft},
      {4, std::nullopt, RetryVerdict::kNoAttemptsLeft},
      {0, std::nullopt, RetryVerdict::kNoAttemptsLeft},   // not an attempt
      {-1, std::nullopt, RetryVerdict::kNoAttemptsLeft},
      {1, now + 11, RetryVerdict::kRetry},
      {1, now + 10, RetryVerdict::kWouldReachNextTrigger},  // the wait would end on it
      {1, now, RetryVerdict::kWouldReachNextTrigger},
      {1, now - 60, RetryVerdict::kWouldReachNextTrigger},  // a trigger already due
      {3, now + 5, RetryVerdict::kNoAttemptsLeft},          // nothing to skip
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::to_string(row.attempt) + " / " + (row.next_trigger ? std::to_string(*row.next_trigger) : "-"));
    EXPECT_EQ(next_retry(policy, row.attempt, now, row.next_trigger), row.verdict);
  }
  EXPECT_EQ(next_retry(RetryPolicy{1, 10s}, 1, now, std::nullopt), RetryVerdict::kNoAttemptsLeft)
      << "maxRetries 0 never retries";
}

TEST(ActionRetry, AttemptLinesNameTheAttemptItsCodeAndItsReason) {
  const RetryPolicy policy{3, 10s};
  StepOutcome both;
  both.status = StepStatus::kFailed;
  both.error_code = ErrorCode::kTimeout;
  both.reason = "killed after 5 s";
  StepOutcome reason_only;
  reason_only.status = StepStatus::kFailed;
  reason_only.reason = "exit status 1";
  StepOutcome bare;
  bare.status = StepStatus::kPassed;
  EXPECT_EQ(describe_attempt(policy, 1, both), "attempt 1 of 3 failed: TIMEOUT killed after 5 s");
  EXPECT_EQ(describe_attempt(policy, 2, reason_only), "attempt 2 of 3 failed: exit status 1");
  EXPECT_EQ(describe_attempt(policy, 3, bare), "attempt 3 of 3 passed");

  EXPECT_EQ(describe_verdict(policy, RetryVerdict::kRetry, 0, std::nullopt), "; retrying in 10 s");
  EXPECT_EQ(describe_verdict(policy, RetryVerdict::kNoAttemptsLeft, 0, std::nullopt), "");
  EXPECT_EQ(describe_verdict(policy, RetryVerdict::kWouldReachNextTrigger, 100, 104),
            "; retry skipped: the next scheduled trigger is in 4 s, before the 10 s retry wait ends");
  EXPECT_EQ(describe_verdict(policy, RetryVerdict::kWouldReachNextTrigger, 100, 90),
            "; retry skipped: the next scheduled trigger is in 0 s, before the 10 s retry wait ends");
}

}  // namespace
}  // namespace companyos::automation
