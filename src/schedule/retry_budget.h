// Save-time rule for retries: maxRetries × retryIntervalSeconds must be shorter than the
// shortest gap between two consecutive triggers over the coming year in the schedule's zone.
#pragma once

#include <cstdint>

#include "companyos/result.h"
#include "schedule/schedule.h"

namespace companyos::schedule {

inline constexpr std::int64_t kMaxRetriesLimit = 5;
inline constexpr std::int64_t kRetryIntervalLimitSeconds = 86'400;

// INVALID_ARGS naming both numbers and the gap when the budget does not fit, or when
// max_retries is outside 0-5 or retry_interval_seconds outside 1-86400.
Status validate_retry_budget(const Schedule& schedule, std::int64_t max_retries,
                             std::int64_t retry_interval_seconds, std::int64_t now);

}  // namespace companyos::schedule
