// What reached the app (DESIGN.md §1, promise 2): nothing, something unconfirmed, or an
// effect that was read back. Only not_delivered is safe to retry.
#pragma once

#include <string_view>

#include "companyos/errors.h"

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

}  // namespace companyos
