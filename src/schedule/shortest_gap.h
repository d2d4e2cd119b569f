// The shortest time between two consecutive triggers of a schedule over a year in its zone,
// DST changes included (a fall-back can make a daily schedule fire twice an hour apart).
#pragma once

#include <cstdint>

#include "companyos/result.h"
#include "schedule/schedule.h"

namespace companyos::schedule {

struct TriggerGap {
  std::int64_t seconds = 0;    // to_unix - from_unix
  std::int64_t from_unix = 0;  // a trigger
  std::int64_t to_unix = 0;    // the trigger right after it
};

// The shortest gap from a trigger in [start, start + 366 days) to the trigger after it.
// Cost: about two next_after calls per selected day (the inside of a day without an offset
// change is skipped), well under a millisecond for any expression; it stops early at 60 s,
// the shortest gap possible. INVALID_ARGS when `start` is outside the supported range.
Result<TriggerGap> shortest_gap(const Schedule& schedule, std::int64_t start);

}  // namespace companyos::schedule
