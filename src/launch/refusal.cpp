#include "launch/refusal.h"

#include "companyos/reply_fields.h"

namespace companyos::launch {

std::string_view to_string(RefusalReason reason) {
  switch (reason) {
    case RefusalReason::kNoEntry:
      return "no_entry";
    case RefusalReason::kNoDefaultApp:
      return "no_default_app";
    case RefusalReason::kAmbiguousEntry:
      return "ambiguous_entry";
    case RefusalReason::kInvalidEntry:
      return "invalid_entry";
    case RefusalReason::kTerminalEntry:
      return "terminal_entry";
    case RefusalReason::kShellEntry:
      return "shell_entry";
    case RefusalReason::kCannotTakeTarget:
      return "cannot_take_target";
    case RefusalReason::kNoGioLaunch:
      return "no_gio_launch";
    case RefusalReason::kNotX11:
      return "not_x11";
    case RefusalReason::kInvalidAppName:
      return "invalid_app_name";
    case RefusalReason::kInvalidChord:
      return "invalid_chord";
    case RefusalReason::kBridgeUnavailable:
      return "bridge_unavailable";
    case RefusalReason::kNoWindow:
      return "no_window";
    case RefusalReason::kAmbiguousWindow:
      return "ambiguous";
  }
  return "unknown";
}

ErrorCode default_error_code(RefusalReason reason) {
  switch (reason) {
    case RefusalReason::kNoEntry:
    case RefusalReason::kNoDefaultApp:
      return ErrorCode::kAppNotFound;
    case RefusalReason::kAmbiguousEntry:
    case RefusalReason::kAmbiguousWindow:
      return ErrorCode::kAmbiguousTarget;
    case RefusalReason::kInvalidEntry:
    case RefusalReason::kTerminalEntry:
    case RefusalReason::kShellEntry:
      return ErrorCode::kPolicyDenied;
    case RefusalReason::kCannotTakeTarget:
      return ErrorCode::kActionNotSupported;
    case RefusalReason::kNoGioLaunch:
    case RefusalReason::kNotX11:
      return ErrorCode::kPlatformNotSupported;
    case RefusalReason::kInvalidAppName:
    case RefusalReason::kInvalidChord:
      return ErrorCode::kInvalidArgs;
    case RefusalReason::kBridgeUnavailable:
      return ErrorCode::kNotFound;
    case RefusalReason::kNoWindow:
      return ErrorCode::kWindowNotFound;
  }
  return ErrorCode::kInternal;
}

Refusal make_refusal(RefusalReason reason, std::string message, nlohmann::json details,
                     std::string suggestion) {
  return Refusal{reason, default_error_code(reason), std::move(message), std::move(details),
                 std::move(suggestion)};
}

Error to_error(const Refusal& refusal) {
  nlohmann::json details = refusal.details.is_object() ? refusal.details : nlohmann::json::object();
  details["reason"] = to_string(refusal.reason);
  details[reply_fields::outcome::kDelivery] = "not_delivered";
  return make_error(refusal.code, refusal.message, std::move(details), refusal.suggestion,
                    Retry::kSafe);
}

nlohmann::json to_json(const Refusal& refusal) {
  nlohmann::json out{{"reason", to_string(refusal.reason)},
                     {"code", to_string(refusal.code)},
                     {"message", refusal.message}};
  if (!refusal.details.empty()) out["details"] = refusal.details;
  if (!refusal.suggestion.empty()) out["suggestion"] = refusal.suggestion;
  return out;
}

}  // namespace companyos::launch
