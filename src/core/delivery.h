// What reached the app (docs/actions.md, "Delivery outcomes"): nothing, something
// unconfirmed, or an effect that was read back. Only not_delivered is safe to retry.
#pragma once

#include <stop_token>
#include <string>
#include <string_view>

#include "companyos/errors.h"
#include "companyos/result.h"

namespace companyos {

enum class Delivery { kNotDelivered, kDeliveredUnverified, kDeliveredVerified };

constexpr std::string_view to_string(Delivery delivery) {
  switch (delivery) {
    case Delivery::kNotDelivered: return "not_delivered";
    case Delivery::kDeliveredUnverified: return "delivered_unverified";
    case Delivery::kDeliveredVerified: return "delivered_verified";
  }
  return "delivered_unverified";
}

constexpr Retry retry_for(Delivery delivery) {
  return delivery == Delivery::kNotDelivered ? Retry::kSafe : Retry::kUnsafe;
}

// The error with details.delivery set and its retry hint made to agree with it.
inline Error with_delivery(Error error, Delivery delivery) {
  if (!error.details.is_object()) error.details = nlohmann::json::object();
  error.details["delivery"] = std::string(to_string(delivery));
  error.retry = retry_for(delivery);
  return error;
}

// Whoever asked still waits for the answer. One that gave up was told the operation failed,
// so nothing may be delivered for it: checked just before `what` (an action, a click, the
// input) is sent. TIMEOUT caller_gone, not_delivered.
inline Status caller_still_waiting(const std::stop_token& caller_gone, std::string_view what) {
  if (!caller_gone.stop_requested()) return ok_status();
  return with_delivery(make_error(ErrorCode::kTimeout,
                                  "the caller stopped waiting before " + std::string(what) + "; nothing was done",
                                  {{"reason", "caller_gone"}}),
                       Delivery::kNotDelivered);
}

}  // namespace companyos
