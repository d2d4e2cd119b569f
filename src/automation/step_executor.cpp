#include "automation/step_executor.h"

#include "companyos/reply_fields.h"

namespace companyos::automation {

std::string_view to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kPassed: return "passed";
    case StepStatus::kFailed: return "failed";
    case StepStatus::kBlocked: return "blocked";
    case StepStatus::kStopped: return "stopped";
  }
  return "failed";
}

bool is_refusal(const Error& error) {
  if (error.details.is_object()) {
    const auto delivery = error.details.find(reply_fields::outcome::kDelivery);
    if (delivery != error.details.end() && delivery->is_string() &&
        *delivery != to_string(Delivery::kNotDelivered)) {
      return false;
    }
  }
  switch (error.code) {
    case ErrorCode::kStaleRef:
    case ErrorCode::kAmbiguousTarget:
    case ErrorCode::kWindowNotFound:
    case ErrorCode::kElementNotFound:
    case ErrorCode::kAppNotFound:
    case ErrorCode::kPolicyDenied:
    case ErrorCode::kPlatformNotSupported:
    case ErrorCode::kNotFound:
    case ErrorCode::kPermDenied:
    case ErrorCode::kInvalidArgs:
    case ErrorCode::kActionNotSupported:
    case ErrorCode::kBusUnavailable:
      return true;
    default:
      return false;
  }
}

StepOutcome outcome_from_error(const Error& error) {
  StepOutcome outcome;
  outcome.status = is_refusal(error) ? StepStatus::kBlocked : StepStatus::kFailed;
  outcome.error_code = error.code;
  outcome.reason = error.message;
  if (outcome.status == StepStatus::kBlocked) outcome.delivery = Delivery::kNotDelivered;
  if (error.details.is_object()) {
    const auto delivery = error.details.find(reply_fields::outcome::kDelivery);
    if (delivery != error.details.end() && delivery->is_string()) {
      if (*delivery == to_string(Delivery::kDeliveredUnverified)) {
        outcome.delivery = Delivery::kDeliveredUnverified;
      } else if (*delivery == to_string(Delivery::kDeliveredVerified)) {
        outcome.delivery = Delivery::kDeliveredVerified;
      } else {
        outcome.delivery = Delivery::kNotDelivered;
      }
    }
  }
  return outcome;
}

}  // namespace companyos::automation
