#include "schedule/calendar_match.h"

#include <bit>
#include <chrono>
#include <limits>

namespace companyos::schedule {
namespace {

// The lowest set bit at or above `from`.
template <typename Mask>
std::optional<unsigned> next_bit(Mask mask, unsigned from) {
  if (from >= static_cast<unsigned>(std::numeric_limits<Mask>::digits)) return std::nullopt;
  auto rest = static_cast<Mask>(mask >> from);
  if (rest == 0) return std::nullopt;
  return from + static_cast<unsigned>(std::countr_zero(rest));
}

template <typename Mask>
bool has_bit(Mask mask, unsigned bit) {
  return ((mask >> bit) & 1u) != 0;
}

// The first selected time of day (minutes since midnight) at or after `from`, if any.
std::optional<unsigned> next_time_of_day(const CronExpression& e, unsigned from) {
  unsigned hour = from / 60;
  if (has_bit(e.hours, hour)) {
    if (auto minute = next_bit(e.minutes, from % 60)) return hour * 60 + *minute;
  }
  auto next_hour = next_bit(e.hours, hour + 1);
  if (!next_hour) return std::nullopt;
  return *next_hour * 60 + *next_bit(e.minutes, 0);
}

date::local_days first_day_of(date::year_month month) { return date::local_days{month / 1}; }

// The first day of the next selected month after `ymd`'s month.
date::local_days next_selected_month(const CronExpression& e, date::year_month_day ymd) {
  if (auto month = next_bit(e.months, static_cast<unsigned>(ymd.month()) + 1)) {
    return first_day_of(ymd.year() / date::month{*month});
  }
  return first_day_of((ymd.year() + date::years{1}) / date::month{*next_bit(e.months, 1)});
}

// The next day of the same month whose day-of-month bit is set, or the next month's first.
date::local_days next_selected_day_of_month(const CronExpression& e, date::year_month_day ymd) {
  auto month = ymd.year() / ymd.month();
  auto next = next_bit(e.days_of_month, static_cast<unsigned>(ymd.day()) + 1);
  if (next && *next <= static_cast<unsigned>((month / date::last).day())) {
    return date::local_days{month / date::day{*next}};
  }
  return first_day_of(month + date::months{1});
}

bool both_day_fields_required(const CronExpression& e) {
  return e.day_of_month_starred || e.day_of_week_starred;
}

}  // namespace

bool day_matches(const CronExpression& e, date::year_month_day day) {
  if (!has_bit(e.months, static_cast<unsigned>(day.month()))) return false;
  bool by_month_day = has_bit(e.days_of_month, static_cast<unsigned>(day.day()));
  bool by_weekday = has_bit(e.days_of_week, date::weekday{date::sys_days{day}}.c_encoding());
  return both_day_fields_required(e) ? by_month_day && by_weekday : by_month_day || by_weekday;
}

std::optional<date::local_seconds> first_match(const CronExpression& e, date::local_seconds from,
                                               date::local_seconds until) {
  if (e.minutes == 0 || e.hours == 0 || e.days_of_month == 0 || e.months == 0 ||
      e.days_of_week == 0) {
    return std::nullopt;
  }
  auto start = date::ceil<std::chrono::minutes>(from);
  auto day = date::floor<date::days>(start);
  auto minute_of_day = static_cast<unsigned>((start - day).count());
  while (day < until) {
    date::year_month_day ymd{day};
    if (!has_bit(e.months, static_cast<unsigned>(ymd.month()))) {
      day = next_selected_month(e, ymd);
      minute_of_day = 0;
      continue;
    }
    if (!day_matches(e, ymd)) {
      bool month_day_missing = !has_bit(e.days_of_month, static_cast<unsigned>(ymd.day()));
      day = both_day_fields_required(e) && month_day_missing ? next_selected_day_of_month(e, ymd)
                                                             : day + date::days{1};
      minute_of_day = 0;
      continue;
    }
    if (auto time = next_time_of_day(e, minute_of_day)) {
      date::local_seconds found = day + std::chrono::minutes{*time};
      if (found < until) return found;
      return std::nullopt;
    }
    day += date::days{1};
    minute_of_day = 0;
  }
  return std::nullopt;
}

}  // namespace companyos::schedule
