// Why a launch or focus step is blocked. Each reason is a stable code for details.reason; a
// blocked step delivered nothing, so its error is always safe to retry.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::launch {

enum class RefusalReason {
  kNoEntry,            // no desktop entry matches the app name
  kNoDefaultApp,       // no app named, and the desktop has no app for the link's scheme
  kAmbiguousEntry,     // several entries match on the deciding level
  kInvalidEntry,       // the entry's Exec breaks the specification's rules
  kTerminalEntry,      // Terminal=true or a TerminalEmulator
  kShellEntry,         // Exec starts a shell, a script interpreter or a command wrapper
  kCannotTakeTarget,   // the entry cannot take this link or file, or the target is unusable
  kNoGioLaunch,        // `gio` has no launch subcommand
  kNotX11,             // Wayland, or no X11 display
  kInvalidAppName,     // bridge: the app name breaks the strict pattern
  kInvalidChord,       // bridge: the key chord breaks the strict pattern
  kBridgeUnavailable,  // bridge: the configured program is not an existing file
  kNoWindow,           // bridge: the program lists no window of the app
  kAmbiguousWindow,    // bridge: the program lists more than one window of the app
};

// "no_entry", "no_default_app", "ambiguous_entry", "invalid_entry", "terminal_entry", "shell_entry",
// "cannot_take_target", "no_gio_launch", "not_x11", "invalid_app_name", "invalid_chord",
// "bridge_unavailable", "no_window", "ambiguous".
std::string_view to_string(RefusalReason reason);

// The protocol error code a reason maps to by default.
ErrorCode default_error_code(RefusalReason reason);

struct Refusal {
  RefusalReason reason;
  ErrorCode code;
  std::string message;
  nlohmann::json details = nlohmann::json::object();  // reason-specific facts
  std::string suggestion;
};

Refusal make_refusal(RefusalReason reason, std::string message,
                     nlohmann::json details = nlohmann::json::object(),
                     std::string suggestion = {});

// The error of the blocked step: details = the refusal's details plus "reason" and
// "delivery": "not_delivered"; retry safe.
Error to_error(const Refusal& refusal);

nlohmann::json to_json(const Refusal& refusal);

}  // namespace companyos::launch
