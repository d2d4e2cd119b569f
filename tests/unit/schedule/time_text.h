// Readable instants for schedule tests: "2026-10-25 02:30 +0200" is a local time with its
// UTC offset, so a table row says both what the zone shows and which instant it is.
// (date::parse is not used: GCC 12 warns about an uninitialized variable inside it.)
#pragma once

#include <date/date.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace companyos::schedule::testing {

// "YYYY-MM-DD HH:MM" or "YYYY-MM-DD HH:MM:SS", a wall-clock reading without a zone.
inline date::local_seconds local(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::string copy(text);
  int read =
      std::sscanf(copy.c_str(), "%d-%d-%d %d:%d:%d", &year, &month, &day, &hour, &minute, &second);
  if (read < 5) throw std::invalid_argument("bad test time: " + copy);
  date::year_month_day ymd{date::year{year}, date::month(static_cast<unsigned>(month)),
                           date::day(static_cast<unsigned>(day))};
  if (!ymd.ok()) throw std::invalid_argument("bad test date: " + copy);
  return date::local_days{ymd} + std::chrono::hours{hour} + std::chrono::minutes{minute} +
         std::chrono::seconds{second};
}

// "YYYY-MM-DD HH:MM +hhmm" (or -hhmm): the Unix seconds of that reading at that offset.
inline std::int64_t at(std::string_view text) {
  auto space = text.rfind(' ');
  std::string offset(text.substr(space + 1));
  int hhmm = 0;
  if (space == std::string_view::npos || offset.size() != 5 ||
      (offset[0] != '+' && offset[0] != '-') ||
      std::sscanf(offset.c_str() + 1, "%4d", &hhmm) != 1) {
    throw std::invalid_argument("bad test offset: " + std::string(text));
  }
  std::chrono::seconds east{(hhmm / 100) * 3600 + (hhmm % 100) * 60};
  if (offset[0] == '-') east = -east;
  return (local(text.substr(0, space)).time_since_epoch() - east).count();
}

inline std::string utc_text(std::int64_t unix_seconds) {
  return date::format("%F %R UTC", date::sys_seconds{std::chrono::seconds{unix_seconds}});
}

}  // namespace companyos::schedule::testing
