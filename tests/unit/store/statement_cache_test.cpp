#include "store/statement_cache.h"

#include <gtest/gtest.h>

namespace companyos::store {
namespace {

class StatementCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Database::open(":memory:");
    ASSERT_TRUE(opened.ok());
    db_.emplace(std::move(opened).value());
    ASSERT_TRUE(db_->exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)").ok());
  }
  std::optional<Database> db_;
};

constexpr std::string_view kSelect = "SELECT x FROM t WHERE x >= ?1 ORDER BY x";

TEST_F(StatementCacheTest, ALeaseEndsResetsCursorAndBindings) {
  StatementCache cache(*db_);
  {
    auto lease = cache.prepare(kSelect);
    ASSERT_TRUE(lease.ok());
    (**lease).bind(1, std::int64_t{2});
    ASSERT_TRUE(*(**lease).step());
    EXPECT_EQ((**lease).column_int64(0), 2);
  }  // left mid-result: the lease resets it
  auto again = cache.prepare(kSelect);
  ASSERT_TRUE(again.ok());
  Statement& stmt = **again;
  stmt.bind(1, std::int64_t{1});
  ASSERT_TRUE(*stmt.step());
  EXPECT_EQ(stmt.column_int64(0), 1) << "a fresh cursor with the new binding";
}

TEST_F(StatementCacheTest, AStatementInUseIsNotSharedWithASecondLease) {
  StatementCache cache(*db_);
  auto outer = cache.prepare(kSelect);
  ASSERT_TRUE(outer.ok());
  (**outer).bind(1, std::int64_t{1});
  ASSERT_TRUE(*(**outer).step());
  {
    auto inner = cache.prepare(kSelect);
    ASSERT_TRUE(inner.ok());
    EXPECT_NE(&**inner, &**outer);
    (**inner).bind(1, std::int64_t{3});
    ASSERT_TRUE(*(**inner).step());
    EXPECT_EQ((**inner).column_int64(0), 3);
  }
  ASSERT_TRUE(*(**outer).step());
  EXPECT_EQ((**outer).column_int64(0), 2) << "the outer cursor was not disturbed";
}

TEST_F(StatementCacheTest, BadSqlIsAnErrorAndNothingIsCached) {
  StatementCache cache(*db_);
  auto bad = cache.prepare("SELEKT nonsense");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInternal);
  EXPECT_FALSE(cache.prepare("SELEKT nonsense").ok());
}

}  // namespace
}  // namespace companyos::store
