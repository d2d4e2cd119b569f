#include "store/audit.h"

#include <gtest/gtest.h>

#include "store/database.h"

namespace companyos::store {
namespace {

TEST(Audit, RecordsRowsNewestFirst) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock(1000);
  AuditLog audit(*db, clock);
  ASSERT_TRUE(audit.record({"click", "mousepad", "push button", "delivered_unverified", std::nullopt, 12}).ok());
  clock.advance(std::chrono::seconds(5));
  ASSERT_TRUE(audit.record({"set_value", "mousepad", std::nullopt, "refused", "STALE_REF", 3}).ok());
  auto rows = audit.recent(10);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2U);
  EXPECT_EQ((*rows)[0]["method"], "set_value");
  EXPECT_EQ((*rows)[0]["at"], 1005);
  EXPECT_TRUE((*rows)[0]["target_role"].is_null());
  EXPECT_EQ((*rows)[0]["error_code"], "STALE_REF");
  EXPECT_EQ((*rows)[1]["target_role"], "push button");
  EXPECT_EQ((*rows)[1]["duration_ms"], 12);
  auto one = audit.recent(1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 1U);
}

TEST(Audit, TheTableHasNoColumnForTextOrValues) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  auto stmt = db->prepare("SELECT name FROM pragma_table_info('audit')");
  ASSERT_TRUE(stmt.ok());
  std::vector<std::string> columns;
  while (*stmt->step()) columns.push_back(stmt->column_text(0));
  EXPECT_EQ(columns, (std::vector<std::string>{"id", "at", "method", "app", "target_role", "outcome",
                                               "error_code", "duration_ms"}));
}

}  // namespace
}  // namespace companyos::store
