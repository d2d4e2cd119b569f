#include "core/delivery.h"

#include <gtest/gtest.h>

namespace companyos {
namespace {

TEST(Delivery, OnlyNotDeliveredIsSafeToRetry) {
  struct Case {
    Delivery delivery;
    const char* name;
    Retry retry;
  };
  const Case cases[] = {
      {Delivery::kNotDelivered, "not_delivered", Retry::kSafe},
      {Delivery::kDeliveredUnverified, "delivered_unverified", Retry::kUnsafe},
      {Delivery::kDeliveredVerified, "delivered_verified", Retry::kUnsafe},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(to_string(c.delivery), c.name);
    EXPECT_EQ(retry_for(c.delivery), c.retry) << c.name;
  }
}

TEST(Delivery, MarksErrorsAndOverridesTheirRetryHint) {
  struct Case {
    Retry given;
    Delivery delivery;
    Retry expected;
  };
  const Case cases[] = {
      {Retry::kSafe, Delivery::kNotDelivered, Retry::kSafe},
      {Retry::kUnsafe, Delivery::kNotDelivered, Retry::kSafe},
      {Retry::kSafe, Delivery::kDeliveredUnverified, Retry::kUnsafe},
      {Retry::kSafe, Delivery::kDeliveredVerified, Retry::kUnsafe},
  };
  for (const Case& c : cases) {
    Error error = make_error(ErrorCode::kAppUnresponsive, "slow", {{"app", "x"}}, "", c.given);
    const Error marked = with_delivery(error, c.delivery);
    EXPECT_EQ(marked.retry, c.expected);
    EXPECT_EQ(marked.details["delivery"], to_string(c.delivery));
    EXPECT_EQ(marked.details["app"], "x");
    EXPECT_EQ(marked.code, ErrorCode::kAppUnresponsive);
  }
  // Details that are not an object (never made by make_error) become one.
  Error odd = make_error(ErrorCode::kInternal, "odd");
  odd.details = nullptr;
  EXPECT_EQ(with_delivery(odd, Delivery::kNotDelivered).details["delivery"], "not_delivered");
}

}  // namespace
}  // namespace companyos
