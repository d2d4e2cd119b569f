// Retries of a failed main action (docs/scheduling.md "Retries and the retry
// budget"): whether another attempt may follow, and the lines a run's output keeps about
// each attempt. Pure; the runner does the waiting and the recording.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "automation/definition.h"
#include "automation/step_executor.h"

namespace companyos::automation {

struct RetryPolicy {
  int attempts = 1;  // 1 + maxRetries
  std::chrono::seconds interval{kDefaultRetryIntervalSeconds};
};

// From a definition that validation accepted; out-of-range numbers (a definition stored by
// hand) are clamped to 0-5 retries and 1-86400 s, never trusted to make a longer wait.
RetryPolicy retry_policy(const Definition& definition);

enum class RetryVerdict {
  kRetry,                  // wait the interval, then try again
  kNoAttemptsLeft,         // that was the last allowed attempt
  kWouldReachNextTrigger,  // the wait would reach the automation's next trigger: skipped
};

// After attempt `attempt` (1-based) failed, at Unix second `now`. A retry whose wait would
// reach `next_trigger_at` is not made: that trigger's run would find this one still active.
RetryVerdict next_retry(const RetryPolicy& policy, int attempt, std::int64_t now,
                        std::optional<std::int64_t> next_trigger_at);

// "attempt 1 of 3 failed: INTERNAL exit status 3" (no code, no reason: left out).
std::string describe_attempt(const RetryPolicy& policy, int attempt, const StepOutcome& outcome);

// "; retrying in 10 s" or "; retry skipped: the next scheduled trigger is in 5 s, before
// the 10 s retry wait ends" — what follows describe_attempt for a failed attempt.
std::string describe_verdict(const RetryPolicy& policy, RetryVerdict verdict, std::int64_t now,
                             std::optional<std::int64_t> next_trigger_at);

}  // namespace companyos::automation
