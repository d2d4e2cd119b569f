#include "store/audit.h"

#include <gtest/gtest.h>

#include "store/database.h"

namespace companyos::store {
namespace {

// An action's row, opened before it runs and completed with its outcome.
Status audit_action(AuditLog& audit, const AuditRecord& record) {
  auto id = audit.open(record);
  if (!id) return std::move(id).take_error();
  return audit.complete(*id, record);
}

TEST(Audit, RecordsRowsNewestFirst) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock(1000);
  AuditLog audit(*db, clock);
  ASSERT_TRUE(audit_action(audit, {"click", "mousepad", "push button", "delivered_unverified", std::nullopt, 12}).ok());
  clock.advance(std::chrono::seconds(5));
  ASSERT_TRUE(audit_action(audit, {"set_value", "mousepad", std::nullopt, "refused", "STALE_REF", 3,
                                   protocol::Origin::kAgent})
                  .ok());
  auto rows = audit.recent(10);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2U);
  EXPECT_EQ((*rows)[0]["method"], "set_value");
  EXPECT_EQ((*rows)[0]["at"], 1005);
  EXPECT_TRUE((*rows)[0]["target_role"].is_null());
  EXPECT_EQ((*rows)[0]["error_code"], "STALE_REF");
  EXPECT_EQ((*rows)[1]["target_role"], "push button");
  EXPECT_EQ((*rows)[1]["duration_ms"], 12);
  EXPECT_EQ((*rows)[0]["origin"], "agent");
  EXPECT_EQ((*rows)[1]["origin"], "person");
  auto one = audit.recent(1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 1U);
}

TEST(Audit, ARowIsPendingUntilItsOutcomeIsFilledIn) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock(1000);
  AuditLog audit(*db, clock);
  // A ref-only request names no app: the resolved target's app fills it in.
  auto id = audit.open({"click", std::nullopt, std::nullopt, "ignored", std::nullopt, 0});
  ASSERT_TRUE(id.ok());
  auto rows = audit.recent(1);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0]["outcome"], "pending");
  EXPECT_EQ((*rows)[0]["duration_ms"], 0);
  ASSERT_TRUE(audit.complete(*id, {"click", "gedit", "push button", "delivered_verified", std::nullopt, 40}).ok());
  rows = audit.recent(5);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1U);
  EXPECT_EQ((*rows)[0]["outcome"], "delivered_verified");
  EXPECT_EQ((*rows)[0]["app"], "gedit");
  EXPECT_EQ((*rows)[0]["target_role"], "push button");
  EXPECT_EQ((*rows)[0]["duration_ms"], 40);
}

TEST(Audit, AFullStoreIsStorageFullNotInternal) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock(1000);
  AuditLog audit(*db, clock);
  // SQLite's own size limit answers exactly as a full disk does (SQLITE_FULL).
  ASSERT_TRUE(db->exec("PRAGMA max_page_count = " + std::to_string([&] {
                auto count = db->prepare("PRAGMA page_count");
                return (*count->step()) ? count->column_int64(0) : 0;
              }())).ok());
  const std::string app(20000, 'a');  // a row larger than the pages left
  auto id = audit.open({"click", app, std::nullopt, "", std::nullopt, 0});
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.error().code, ErrorCode::kStorageFull) << id.error().message;
  EXPECT_EQ(id.error().details["reason"], "disk_full");
  EXPECT_EQ(id.error().retry, Retry::kSafe);
  EXPECT_NE(id.error().suggestion.find("free space"), std::string::npos);
}

TEST(Audit, TheTableHasNoColumnForTextOrValues) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  auto stmt = db->prepare("SELECT name FROM pragma_table_info('audit')");
  ASSERT_TRUE(stmt.ok());
  std::vector<std::string> columns;
  while (*stmt->step()) columns.push_back(stmt->column_text(0));
  EXPECT_EQ(columns, (std::vector<std::string>{"id", "at", "method", "app", "target_role", "outcome",
                                               "error_code", "duration_ms", "origin"}));
}

}  // namespace
}  // namespace companyos::store
