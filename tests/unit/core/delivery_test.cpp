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

TEST(Delivery, NothingIsSentForACallerThatStoppedWaiting) {
  std::stop_source caller;
  EXPECT_TRUE(caller_still_waiting(caller.get_token(), "the click"));
  EXPECT_TRUE(caller_still_waiting(std::stop_token{}, "the click"));  // nobody can give up
  caller.request_stop();
  const auto refused = caller_still_waiting(caller.get_token(), "the click");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTimeout);
  EXPECT_EQ(refused.error().message, "the caller stopped waiting before the click; nothing was done");
  EXPECT_EQ(refused.error().details["reason"], "caller_gone");
  EXPECT_EQ(refused.error().details["delivery"], "not_delivered");
  EXPECT_EQ(refused.error().retry, Retry::kSafe);
}

}  // namespace
}  // namespace companyos
