#include "schedule/schedule.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "schedule/calendar_match.h"
#include "schedule/time_zone.h"

namespace companyos::schedule {
namespace {

// Far beyond the sparsest valid expression (February 29 skips 8 years around 2100).
constexpr date::days kSearchHorizon{366 * 100};

date::local_seconds to_local(date::sys_seconds instant, std::chrono::seconds offset) {
  return date::local_seconds{instant.time_since_epoch() + offset};
}

}  // namespace

Result<Schedule> Schedule::create(std::string_view expression, std::string_view zone_name) {
  auto parsed = parse_cron(expression);
  if (!parsed) return std::move(parsed).take_error();
  auto zone = find_time_zone(zone_name);
  if (!zone) return std::move(zone).take_error();
  return Schedule(std::move(parsed).value(), zone.value());
}

// The zone's history is a chain of UTC segments, each with one fixed offset. Inside a
// segment local time runs in step with UTC, so the first selected local minute inside the
// segment's local range is its first trigger. Local times in a gap belong to no segment and
// never fire; local times repeated at a fall-back belong to two segments and fire in both.
std::optional<std::int64_t> Schedule::next_after(std::int64_t after) const {
  if (after < kEarliestSupported || after > kLatestSupported) return std::nullopt;
  const date::sys_seconds after_time{std::chrono::seconds{after}};
  const date::sys_seconds horizon = std::min(
      after_time + kSearchHorizon, date::sys_seconds{std::chrono::seconds{kLatestSupported}});

  date::sys_info segment = zone_->get_info(after_time);
  date::local_seconds from = to_local(after_time, segment.offset) + std::chrono::seconds{1};
  for (;;) {
    const date::sys_seconds until = std::min(segment.end, horizon);
    if (auto local = first_match(expression_, from, to_local(until, segment.offset))) {
      return (local->time_since_epoch() - segment.offset).count();
    }
    if (segment.end >= horizon) return std::nullopt;
    date::sys_info next = zone_->get_info(segment.end);
    if (next.end <= segment.end) return std::nullopt;  // a malformed database; never loop
    segment = next;
    from = to_local(segment.begin, segment.offset);
  }
}

Result<std::int64_t> next_occurrence(std::string_view expression, std::string_view zone_name,
                                     std::int64_t after) {
  auto schedule = Schedule::create(expression, zone_name);
  if (!schedule) return std::move(schedule).take_error();
  if (after < kEarliestSupported || after > kLatestSupported) {
    return make_error(ErrorCode::kInvalidArgs,
                      "schedule: start time " + std::to_string(after) +
                          " is outside the supported range (years 1900-9999)",
                      {{"after", after}});
  }
  auto next = schedule->next_after(after);
  if (!next) {
    return make_error(ErrorCode::kInvalidArgs,
                      "schedule: \"" + schedule->expression().text + "\" does not fire before " +
                          "the end of the supported range",
                      {{"expression", schedule->expression().text}, {"after", after}});
  }
  return *next;
}

}  // namespace companyos::schedule
