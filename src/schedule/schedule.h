// A cron expression bound to an IANA zone: the instants at which an automation triggers.
// Local times in a spring-forward gap never fire; a repeated local time fires at each instant.
#pragma once

#include <date/tz.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "companyos/result.h"
#include "schedule/cron_expression.h"

namespace companyos::schedule {

// Instants the scheduler computes with: Unix seconds from 1900-01-01 to 9999-12-31 UTC.
inline constexpr std::int64_t kEarliestSupported = -2'208'988'800;
inline constexpr std::int64_t kLatestSupported = 253'402'300'799;

class Schedule {
 public:
  // INVALID_ARGS when the expression or the zone name is bad.
  static Result<Schedule> create(std::string_view expression, std::string_view zone_name);

  // The first trigger strictly after `after` (Unix seconds); nullopt when `after` is outside
  // the supported range or nothing fires within 100 years (only for hand-built expressions).
  std::optional<std::int64_t> next_after(std::int64_t after) const;

  const CronExpression& expression() const { return expression_; }
  const date::time_zone& zone() const { return *zone_; }

 private:
  Schedule(CronExpression expression, const date::time_zone* zone)
      : expression_(std::move(expression)), zone_(zone) {}

  CronExpression expression_;
  const date::time_zone* zone_;
};

// Schedule::create and next_after in one call; INVALID_ARGS for a bad expression, zone or
// `after` out of range.
Result<std::int64_t> next_occurrence(std::string_view expression, std::string_view zone_name,
                                     std::int64_t after);

}  // namespace companyos::schedule
