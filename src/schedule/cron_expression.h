// Five-field cron expressions with Vixie cron semantics (docs/scheduling.md).
// parse_cron accepts only expressions that can fire; errors are INVALID_ARGS naming the field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::schedule {

// The allowed values of each field as bit masks: bit N set means value N is allowed.
struct CronExpression {
  std::uint64_t minutes = 0;        // bits 0-59
  std::uint32_t hours = 0;          // bits 0-23
  std::uint32_t days_of_month = 0;  // bits 1-31
  std::uint16_t months = 0;         // bits 1-12
  std::uint8_t days_of_week = 0;    // bits 0-6, 0 = Sunday (a written 7 lands on bit 0)
  // Vixie rule: when either day field was written starting with '*', a day must match
  // both day fields; otherwise it must match at least one of them.
  bool day_of_month_starred = false;
  bool day_of_week_starred = false;
  std::string text;  // as written, for messages
};

// Parses five fields or an alias (@hourly, @daily, @midnight, @weekly, @monthly, @yearly,
// @annually). Refuses an expression that can never fire, such as "0 0 31 2 *".
Result<CronExpression> parse_cron(std::string_view text);

}  // namespace companyos::schedule
