#include "schedule/shortest_gap.h"

#include <chrono>
#include <optional>
#include <string>

namespace companyos::schedule {
namespace {

constexpr std::int64_t kWindowSeconds = 366 * 86'400;
constexpr std::int64_t kShortestPossibleGap = 60;  // triggers fall on distinct whole minutes

// The selected times of one day, in minutes since midnight.
struct DayTimes {
  unsigned first = 0;
  unsigned last = 0;
  std::optional<unsigned> shortest_step;  // between two consecutive times of the day
  unsigned shortest_step_from = 0;
};

DayTimes selected_times(const CronExpression& e) {
  DayTimes times;
  std::optional<unsigned> previous;
  for (unsigned hour = 0; hour < 24; ++hour) {
    if (((e.hours >> hour) & 1u) == 0) continue;
    for (unsigned minute = 0; minute < 60; ++minute) {
      if (((e.minutes >> minute) & 1u) == 0) continue;
      unsigned time = hour * 60 + minute;
      if (!previous) {
        times.first = time;
      } else if (!times.shortest_step || time - *previous < *times.shortest_step) {
        times.shortest_step = time - *previous;
        times.shortest_step_from = *previous;
      }
      times.last = time;
      previous = time;
    }
  }
  return times;
}

// Minutes since local midnight of a trigger, with the zone segment it falls in.
struct LocalPlace {
  unsigned minute_of_day;
  date::sys_seconds segment_end;
};

LocalPlace place_of(const date::time_zone& zone, std::int64_t instant) {
  date::sys_seconds when{std::chrono::seconds{instant}};
  date::sys_info info = zone.get_info(when);
  date::local_seconds local{when.time_since_epoch() + info.offset};
  auto since_midnight = local - date::floor<date::days>(local);
  return {static_cast<unsigned>(since_midnight / std::chrono::minutes{1}), info.end};
}

}  // namespace

Result<TriggerGap> shortest_gap(const Schedule& schedule, std::int64_t start) {
  auto out_of_range = [&] {
    return make_error(ErrorCode::kInvalidArgs,
                      "schedule: start time " + std::to_string(start) +
                          " is outside the supported range (years 1900-9999)",
                      {{"start", start}});
  };
  if (start <= kEarliestSupported || start > kLatestSupported - kWindowSeconds) {
    return out_of_range();
  }
  const DayTimes times = selected_times(schedule.expression());
  const std::int64_t end = start + kWindowSeconds;

  auto current = schedule.next_after(start - 1);
  if (!current) return out_of_range();
  std::optional<TriggerGap> shortest;
  auto consider = [&](std::int64_t from, std::int64_t to) {
    if (!shortest || to - from < shortest->seconds) shortest = TriggerGap{to - from, from, to};
  };
  for (;;) {
    // A day whose selected times all share one offset repeats the day's own spacing: take
    // its shortest step and jump to its last time instead of visiting each trigger.
    if (times.shortest_step) {
      LocalPlace place = place_of(schedule.zone(), *current);
      std::int64_t day_last = *current + std::int64_t{times.last - times.first} * 60;
      if (place.minute_of_day == times.first && day_last < end &&
          date::sys_seconds{std::chrono::seconds{day_last}} < place.segment_end) {
        std::int64_t step_from =
            *current + std::int64_t{times.shortest_step_from - times.first} * 60;
        consider(step_from, step_from + std::int64_t{*times.shortest_step} * 60);
        current = day_last;
      }
    }
    auto next = schedule.next_after(*current);
    if (!next) break;  // the end of the supported range
    consider(*current, *next);
    if (shortest->seconds <= kShortestPossibleGap || *next >= end) break;
    current = next;
  }
  if (!shortest) return out_of_range();
  return *shortest;
}

}  // namespace companyos::schedule
