#include "companyos/errors.h"

#include <array>
#include <utility>

namespace companyos {
namespace {

constexpr std::array<std::pair<ErrorCode, std::string_view>, 18> kNames{{
    {ErrorCode::kInvalidArgs, "INVALID_ARGS"},
    {ErrorCode::kNotFound, "NOT_FOUND"},
    {ErrorCode::kAppNotFound, "APP_NOT_FOUND"},
    {ErrorCode::kWindowNotFound, "WINDOW_NOT_FOUND"},
    {ErrorCode::kElementNotFound, "ELEMENT_NOT_FOUND"},
    {ErrorCode::kAmbiguousTarget, "AMBIGUOUS_TARGET"},
    {ErrorCode::kStaleRef, "STALE_REF"},
    {ErrorCode::kActionNotSupported, "ACTION_NOT_SUPPORTED"},
    {ErrorCode::kPolicyDenied, "POLICY_DENIED"},
    {ErrorCode::kTimeout, "TIMEOUT"},
    {ErrorCode::kAppUnresponsive, "APP_UNRESPONSIVE"},
    {ErrorCode::kPlatformNotSupported, "PLATFORM_NOT_SUPPORTED"},
    {ErrorCode::kBusUnavailable, "BUS_UNAVAILABLE"},
    {ErrorCode::kConflict, "CONFLICT"},
    {ErrorCode::kGateNotMet, "GATE_NOT_MET"},
    {ErrorCode::kPermDenied, "PERM_DENIED"},
    {ErrorCode::kStorageFull, "STORAGE_FULL"},
    {ErrorCode::kInternal, "INTERNAL"},
}};

}  // namespace

std::string_view to_string(ErrorCode code) {
  for (const auto& [c, name] : kNames) {
    if (c == code) return name;
  }
  return "INTERNAL";
}

std::optional<ErrorCode> error_code_from_string(std::string_view name) {
  for (const auto& [c, n] : kNames) {
    if (n == name) return c;
  }
  return std::nullopt;
}

std::string_view to_string(Retry retry) { return retry == Retry::kSafe ? "safe" : "unsafe"; }

}  // namespace companyos
