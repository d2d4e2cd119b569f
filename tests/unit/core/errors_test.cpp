#include "companyos/errors.h"

#include <gtest/gtest.h>

namespace companyos {
namespace {

TEST(ErrorCodes, EveryCodeRoundTripsThroughItsName) {
  for (int i = 0; i <= static_cast<int>(ErrorCode::kInternal); ++i) {
    auto code = static_cast<ErrorCode>(i);
    auto name = to_string(code);
    ASSERT_FALSE(name.empty());
    EXPECT_EQ(error_code_from_string(name), code) << name;
  }
}

TEST(ErrorCodes, DesignNamesAreExact) {
  EXPECT_EQ(to_string(ErrorCode::kStaleRef), "STALE_REF");
  EXPECT_EQ(to_string(ErrorCode::kAmbiguousTarget), "AMBIGUOUS_TARGET");
  EXPECT_EQ(to_string(ErrorCode::kPlatformNotSupported), "PLATFORM_NOT_SUPPORTED");
}

TEST(ErrorCodes, UnknownNamesDoNotParse) {
  for (const char* name : {"", "stale_ref", "STALE", "INVALID_ARGS ", "OK"}) {
    EXPECT_FALSE(error_code_from_string(name).has_value()) << name;
  }
}

}  // namespace
}  // namespace companyos
