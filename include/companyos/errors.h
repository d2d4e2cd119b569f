// The closed set of protocol error codes (docs/protocol.md), shared by daemon and CLI.
// Codes travel as their upper-case names; an unknown name parses to nullopt.
#pragma once

#include <optional>
#include <string_view>

namespace companyos {

enum class ErrorCode {
  kInvalidArgs,
  kNotFound,
  kAppNotFound,
  kWindowNotFound,
  kElementNotFound,
  kAmbiguousTarget,
  kStaleRef,
  kActionNotSupported,
  kPolicyDenied,
  kTimeout,
  kAppUnresponsive,
  kPlatformNotSupported,
  kBusUnavailable,
  kConflict,
  kGateNotMet,
  kPermDenied,
  kStorageFull,
  kInternal,
};

std::string_view to_string(ErrorCode code);
std::optional<ErrorCode> error_code_from_string(std::string_view name);

// Whether a request that failed with nothing delivered may be repeated as is.
enum class Retry { kSafe, kUnsafe };
std::string_view to_string(Retry retry);

}  // namespace companyos
