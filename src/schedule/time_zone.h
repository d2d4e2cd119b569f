// IANA time zones from the system tz database through date/tz. Nothing here throws: an
// unknown or unreadable zone is an INVALID_ARGS error.
#pragma once

#include <date/tz.h>

#include <string_view>

#include "companyos/result.h"

namespace companyos::schedule {

// The zone an automation uses when its definition names none.
inline constexpr std::string_view kDefaultTimeZone = "UTC";

// The zone for an IANA name such as "Europe/Berlin" (exact spelling, case matters). The
// pointer stays valid for the life of the process.
Result<const date::time_zone*> find_time_zone(std::string_view name);

}  // namespace companyos::schedule
