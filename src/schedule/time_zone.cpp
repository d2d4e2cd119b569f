#include "schedule/time_zone.h"

#include <exception>
#include <string>

namespace companyos::schedule {
namespace {

Error unknown_zone(std::string_view name, std::string_view why) {
  return make_error(ErrorCode::kInvalidArgs,
                    "timezone \"" + std::string(name) + "\": " + std::string(why),
                    {{"timezone", std::string(name)}},
                    "use an IANA name such as UTC, Europe/Berlin or America/New_York");
}

}  // namespace

Result<const date::time_zone*> find_time_zone(std::string_view name) {
  if (name.empty()) return unknown_zone(name, "empty name");
  // The database lists the machine's own "localtime" link, which means a different zone on
  // every machine; a stored definition must say which zone it means.
  if (name == "localtime") return unknown_zone(name, "not an IANA zone name");
  try {
    const date::time_zone* zone = date::locate_zone(name);
    // date/tz reads a zone's file on first use; do it here, where a failure can be caught.
    (void)zone->get_info(date::sys_seconds{});
    return zone;
  } catch (const std::exception&) {
    return unknown_zone(name, "not in the system time zone database");
  }
}

}  // namespace companyos::schedule
