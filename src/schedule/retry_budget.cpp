#include "schedule/retry_budget.h"

#include <date/date.h>

#include <chrono>
#include <string>

#include "schedule/shortest_gap.h"

namespace companyos::schedule {
namespace {

std::string utc_text(std::int64_t unix_seconds) {
  return date::format("%FT%TZ", date::sys_seconds{std::chrono::seconds{unix_seconds}});
}

Error out_of_bounds(std::string_view name, std::int64_t value, std::int64_t low,
                    std::int64_t high) {
  std::string allowed = std::to_string(low) + "-" + std::to_string(high);
  return make_error(ErrorCode::kInvalidArgs,
                    std::string(name) + " " + std::to_string(value) + " is out of range " + allowed,
                    {{"field", name}, {"got", value}, {"allowed", allowed}},
                    "use " + std::string(name) + " " + allowed);
}

}  // namespace

Status validate_retry_budget(const Schedule& schedule, std::int64_t max_retries,
                             std::int64_t retry_interval_seconds, std::int64_t now) {
  if (max_retries < 0 || max_retries > kMaxRetriesLimit) {
    return out_of_bounds("maxRetries", max_retries, 0, kMaxRetriesLimit);
  }
  if (retry_interval_seconds < 1 || retry_interval_seconds > kRetryIntervalLimitSeconds) {
    return out_of_bounds("retryIntervalSeconds", retry_interval_seconds, 1,
                         kRetryIntervalLimitSeconds);
  }
  if (max_retries == 0) return ok_status();
  auto gap = shortest_gap(schedule, now);
  if (!gap) return std::move(gap).take_error();
  const std::int64_t budget = max_retries * retry_interval_seconds;
  if (budget < gap->seconds) return ok_status();

  const CronExpression& expression = schedule.expression();
  std::string message =
      "retry budget: maxRetries " + std::to_string(max_retries) + " x retryIntervalSeconds " +
      std::to_string(retry_interval_seconds) + " = " + std::to_string(budget) +
      " s is not shorter than the shortest gap between two triggers of \"" + expression.text +
      "\" in " + schedule.zone().name() + ": " + std::to_string(gap->seconds) + " s (" +
      utc_text(gap->from_unix) + " to " + utc_text(gap->to_unix) + ")";
  std::int64_t largest_interval = (gap->seconds - 1) / max_retries;
  std::string suggestion =
      largest_interval >= 1
          ? "lower maxRetries or retryIntervalSeconds so their product is below " +
                std::to_string(gap->seconds) + " s (with maxRetries " +
                std::to_string(max_retries) + ", retryIntervalSeconds at most " +
                std::to_string(largest_interval) + ")"
          : "lower maxRetries so that the product is below " + std::to_string(gap->seconds) + " s";
  return make_error(ErrorCode::kInvalidArgs, std::move(message),
                    {{"max_retries", max_retries},
                     {"retry_interval_seconds", retry_interval_seconds},
                     {"budget_seconds", budget},
                     {"shortest_gap_seconds", gap->seconds},
                     {"gap_from", gap->from_unix},
                     {"gap_to", gap->to_unix},
                     {"expression", expression.text},
                     {"timezone", schedule.zone().name()}},
                    std::move(suggestion));
}

}  // namespace companyos::schedule
