#include "schedule/time_zone.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace companyos::schedule {
namespace {

TEST(FindTimeZone, AcceptsIanaNames) {
  for (std::string_view name : {"UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe",
                                "Asia/Jakarta", "Asia/Kathmandu", "Etc/GMT+5", "US/Eastern"}) {
    SCOPED_TRACE(std::string(name));
    auto zone = find_time_zone(name);
    ASSERT_TRUE(zone.ok()) << zone.error().message;
    EXPECT_EQ(zone.value()->name(), name);
  }
}

TEST(FindTimeZone, DefaultIsUtc) {
  auto zone = find_time_zone(kDefaultTimeZone);
  ASSERT_TRUE(zone.ok());
  EXPECT_EQ(zone.value()->name(), "UTC");
}

TEST(FindTimeZone, RefusesWhatIsNotAZone) {
  struct Case {
    std::string_view name;
    std::string_view message;
  };
  const Case cases[] = {
      {"", "timezone \"\": empty name"},
      {"Mars/Olympus", "timezone \"Mars/Olympus\": not in the system time zone database"},
      {"europe/berlin", "timezone \"europe/berlin\": not in the system time zone database"},
      {"Europe", "timezone \"Europe\": not in the system time zone database"},
      {"../../etc/passwd", "timezone \"../../etc/passwd\": not in the system time zone database"},
      {"Europe/Berlin ", "timezone \"Europe/Berlin \": not in the system time zone database"},
      {"+02:00", "timezone \"+02:00\": not in the system time zone database"},
      {"localtime", "timezone \"localtime\": not an IANA zone name"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    auto zone = find_time_zone(c.name);
    ASSERT_FALSE(zone.ok());
    EXPECT_EQ(zone.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(zone.error().message, c.message);
    EXPECT_EQ(zone.error().details.value("timezone", ""), c.name);
    EXPECT_FALSE(zone.error().suggestion.empty());
  }
}

}  // namespace
}  // namespace companyos::schedule
