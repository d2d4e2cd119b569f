// Matching a cron expression against civil (zone-less) local time, skipping whole months,
// days and hours that cannot match instead of scanning minutes.
#pragma once

#include <date/date.h>

#include <optional>

#include "schedule/cron_expression.h"

namespace companyos::schedule {

// Whether the calendar day is selected by the month and day fields (Vixie AND/OR rule).
bool day_matches(const CronExpression& expression, date::year_month_day day);

// The earliest selected local minute L with from <= L < until, if any.
std::optional<date::local_seconds> first_match(const CronExpression& expression,
                                               date::local_seconds from, date::local_seconds until);

}  // namespace companyos::schedule
