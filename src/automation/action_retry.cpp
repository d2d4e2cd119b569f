#include "automation/action_retry.h"

#include <algorithm>

#include "schedule/retry_budget.h"

namespace companyos::automation {

RetryPolicy retry_policy(const Definition& definition) {
  const auto retries = std::clamp<std::int64_t>(definition.max_retries, 0, schedule::kMaxRetriesLimit);
  const auto interval =
      std::clamp<std::int64_t>(definition.retry_interval_seconds, 1, schedule::kRetryIntervalLimitSeconds);
  return {static_cast<int>(retries) + 1, std::chrono::seconds(interval)};
}

RetryVerdict next_retry(const RetryPolicy& policy, int attempt, std::int64_t now,
                        std::optional<std::int64_t> next_trigger_at) {
  if (attempt < 1 || attempt >= policy.attempts) return RetryVerdict::kNoAttemptsLeft;
  if (next_trigger_at && now + policy.interval.count() >= *next_trigger_at) {
    return RetryVerdict::kWouldReachNextTrigger;
  }
  return RetryVerdict::kRetry;
}

std::string describe_attempt(const RetryPolicy& policy, int attempt, const StepOutcome& outcome) {
  std::string text = "attempt " + std::to_string(attempt) + " of " + std::to_string(policy.attempts) + " " +
                     std::string(to_string(outcome.status));
  std::string why;
  if (outcome.error_code) why = std::string(to_string(*outcome.error_code));
  if (!outcome.reason.empty()) why += (why.empty() ? "" : " ") + outcome.reason;
  if (!why.empty()) text += ": " + why;
  return text;
}

std::string describe_verdict(const RetryPolicy& policy, RetryVerdict verdict, std::int64_t now,
                             std::optional<std::int64_t> next_trigger_at) {
  const std::string wait = std::to_string(policy.interval.count()) + " s";
  switch (verdict) {
    case RetryVerdict::kRetry: return "; retrying in " + wait;
    case RetryVerdict::kNoAttemptsLeft: return "";
    case RetryVerdict::kWouldReachNextTrigger:
      return "; retry skipped: the next scheduled trigger is in " +
             std::to_string(std::max<std::int64_t>(next_trigger_at.value_or(now) - now, 0)) +
             " s, before the " + wait + " retry wait ends";
  }
  return "";
}

}  // namespace companyos::automation
