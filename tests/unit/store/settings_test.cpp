#include "store/settings.h"

#include <gtest/gtest.h>

#include <fstream>

#include "store/database.h"
#include "temp_dir.h"

namespace companyos::store {
namespace {

struct SettingsCase {
  const char* key;
  nlohmann::json value;
  bool valid;
  friend void PrintTo(const SettingsCase& c, std::ostream* os) { *os << c.key << "=" << c.value.dump(); }
};

class SettingsValidation : public ::testing::TestWithParam<SettingsCase> {};

TEST_P(SettingsValidation, AcceptsOnlyTheAllowedRange) {
  const SettingsCase& c = GetParam();
  auto result = validate_setting(c.key, c.value);
  EXPECT_EQ(result.ok(), c.valid) << c.key << " = " << c.value.dump();
  if (!result.ok()) {
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgs);
    EXPECT_FALSE(result.error().message.empty());
  } else {
    EXPECT_EQ(*result, c.value);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, SettingsValidation,
    ::testing::Values(
        SettingsCase{"unattended", true, true}, SettingsCase{"unattended", false, true},
        SettingsCase{"unattended", "true", false}, SettingsCase{"unattended", 1, false},
        SettingsCase{"unattended", nullptr, false},
        SettingsCase{"max_level", 1, true}, SettingsCase{"max_level", 4, true}, SettingsCase{"max_level", 0, false},
        SettingsCase{"max_level", 5, false}, SettingsCase{"max_level", -1, false}, SettingsCase{"max_level", 3.5, false},
        SettingsCase{"max_level", "4", false},
        SettingsCase{"physical_input", true, true}, SettingsCase{"physical_input", "yes", false},
        SettingsCase{"automations_enabled", false, true}, SettingsCase{"automations_enabled", 0, false},
        SettingsCase{"agent_desktop_path", "", true}, SettingsCase{"agent_desktop_path", "/bin/sh", true},
        SettingsCase{"agent_desktop_path", "relative/path", false},
        SettingsCase{"agent_desktop_path", "/no/such/file/anywhere", false},
        SettingsCase{"agent_desktop_path", "/tmp", false},  // a directory is not a file
        SettingsCase{"agent_desktop_path", 42, false},
        // stat() and exec see "/bin/sh": not the path that was given.
        SettingsCase{"agent_desktop_path", std::string("/bin/sh\0x", 9), false},
        SettingsCase{"dashboard_port", 0, true}, SettingsCase{"dashboard_port", 8765, true},
        SettingsCase{"dashboard_port", 65535, true}, SettingsCase{"dashboard_port", 65536, false},
        SettingsCase{"dashboard_port", -1, false}, SettingsCase{"dashboard_port", "8765", false},
        SettingsCase{"dashboard_port", 80.5, false}, SettingsCase{"dashboard_port", true, false},
        SettingsCase{"no_such_key", true, false}, SettingsCase{"", true, false}));

TEST(Settings, LevelFiveSaysNotBuilt) {
  auto result = validate_setting("max_level", 5);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("not built"), std::string::npos);
}

TEST(Settings, DefaultsBeforeAnyWrite) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock;
  Settings settings(*db, clock);
  auto all = settings.all();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ((*all)["unattended"], false);
  EXPECT_EQ((*all)["max_level"], 3);
  EXPECT_EQ((*all)["physical_input"], false);
  EXPECT_EQ((*all)["agent_desktop_path"], "");
  EXPECT_EQ((*all)["automations_enabled"], true);
  EXPECT_EQ((*all)["dashboard_port"], 0);
  EXPECT_EQ(all->size(), setting_specs().size());
}

TEST(Settings, SetPersistsAcrossReopenAndBadValuesChangeNothing) {
  testing::TempDir dir;
  const std::string path = dir.file("db");
  FakeClock clock;
  {
    auto db = Database::open(path);
    ASSERT_TRUE(db.ok());
    Settings settings(*db, clock);
    ASSERT_TRUE(settings.set("max_level", 4).ok());
    ASSERT_TRUE(settings.set("unattended", true).ok());
    EXPECT_FALSE(settings.set("max_level", 9).ok());
    EXPECT_FALSE(settings.set("unattended", "yes").ok());
  }
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok());
  Settings settings(*db, clock);
  EXPECT_EQ(*settings.get("max_level"), 4);
  EXPECT_EQ(*settings.get("unattended"), true);
  EXPECT_FALSE(settings.get("bogus").ok());
}

TEST(Settings, UnknownOrCorruptRowsAreIgnored) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("INSERT INTO settings VALUES ('from_the_future', 'true', 0), "
                       "('max_level', 'not json', 0)").ok());
  FakeClock clock;
  Settings settings(*db, clock);
  auto all = settings.all();
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(all->contains("from_the_future"));
  EXPECT_EQ((*all)["max_level"], 3);
}

}  // namespace
}  // namespace companyos::store
