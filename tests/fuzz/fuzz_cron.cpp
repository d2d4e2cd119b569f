// A schedule as a definition gives it: a cron expression (parse_cron), an IANA zone name
// (find_time_zone), both together (Schedule) and the triggers computed from them
// (next_after, shortest_gap, validate_retry_budget). Properties: the expression's masks
// hold only the values of their fields and each can fire; a Schedule exists exactly when
// both parts are valid; every trigger is strictly after the time asked about, nothing
// fires in between, and its local time in the zone is a whole minute the expression
// selects.
//
// Input: three lines: the expression, the zone name, and optionally the Unix time to
// compute from (default 2026-01-01 00:00 UTC).
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

#include <date/date.h>
#include <date/tz.h>

#include "fuzz_support.h"
#include "schedule/calendar_match.h"
#include "schedule/cron_expression.h"
#include "schedule/retry_budget.h"
#include "schedule/schedule.h"
#include "schedule/shortest_gap.h"
#include "schedule/time_zone.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::schedule;

constexpr std::int64_t kNow = 1'767'225'600;  // 2026-01-01 00:00 UTC

void check_masks(const CronExpression& cron) {
  FUZZ_CHECK(cron.minutes != 0 && (cron.minutes >> 60) == 0);
  FUZZ_CHECK(cron.hours != 0 && (cron.hours >> 24) == 0);
  FUZZ_CHECK(cron.days_of_month != 0 && (cron.days_of_month & 1u) == 0);
  FUZZ_CHECK(cron.months != 0 && (cron.months & 1u) == 0 && (cron.months >> 13) == 0);
  FUZZ_CHECK(cron.days_of_week != 0 && (cron.days_of_week >> 7) == 0);
}

// The trigger's local minute in the zone is selected by every field.
void check_selected(const Schedule& schedule, std::int64_t trigger) {
  const auto local = schedule.zone().to_local(date::sys_seconds{std::chrono::seconds{trigger}});
  const auto day = date::floor<date::days>(local);
  const date::hh_mm_ss time{local - day};
  const CronExpression& cron = schedule.expression();
  FUZZ_CHECK(((cron.minutes >> time.minutes().count()) & 1u) != 0);
  FUZZ_CHECK(((cron.hours >> time.hours().count()) & 1u) != 0);
  FUZZ_CHECK(time.seconds().count() == 0);
  FUZZ_CHECK(day_matches(cron, date::year_month_day{day}));
}

void check_schedule(const Schedule& schedule, std::int64_t after) {
  std::int64_t from = after;
  for (int i = 0; i < 3; ++i) {  // three triggers in a row
    const auto next = schedule.next_after(from);
    if (!next) return;  // out of the supported range, or nothing within 100 years
    FUZZ_CHECK(*next > from);
    // A whole minute of local time (check_selected), not of UTC: a zone's offset may hold
    // seconds (Asia/Jakarta's local mean time until 1924 was +7:07:12).
    FUZZ_CHECK(*next >= kEarliestSupported && *next <= kLatestSupported);
    // Nothing fires between `from` and the trigger found.
    FUZZ_CHECK(schedule.next_after(*next - 1) == next);
    check_selected(schedule, *next);
    from = *next;
  }
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  using namespace companyos::schedule;
  const auto lines = fuzz::fields(fuzz::as_text(data, size), 3);
  const std::string& expression = lines[0];
  const std::string& zone_name = lines[1];
  std::int64_t after = fuzz::kNow;
  if (!lines[2].empty()) {
    std::int64_t parsed = 0;
    const char* end = lines[2].data() + lines[2].size();
    if (std::from_chars(lines[2].data(), end, parsed).ptr == end) after = parsed;
  }

  auto cron = parse_cron(expression);
  if (cron) {
    fuzz::check_masks(*cron);
  } else {
    FUZZ_CHECK(cron.error().code == ErrorCode::kInvalidArgs);
  }
  auto zone = find_time_zone(zone_name);
  FUZZ_CHECK(zone.ok() || zone.error().code == ErrorCode::kInvalidArgs);

  auto schedule = Schedule::create(expression, zone_name);
  FUZZ_CHECK(schedule.ok() == (cron.ok() && zone.ok()));
  if (!schedule) return 0;
  fuzz::check_schedule(*schedule, after);
  if (after >= kEarliestSupported && after <= kLatestSupported) {
    auto gap = shortest_gap(*schedule, after);
    if (gap) FUZZ_CHECK(gap->seconds >= 60 && gap->to_unix - gap->from_unix == gap->seconds);
    (void)validate_retry_budget(*schedule, 1, 60, after);
  }
  return 0;
}
