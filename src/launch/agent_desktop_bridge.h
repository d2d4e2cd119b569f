// The optional agent-desktop bridge (off unless the agent_desktop_path setting names a
// program): focusing an app runs `<prog> list-windows --app NAME`, whose output only counts
// windows (each non-blank line is one window), then `<prog> focus-window --app NAME`; success
// only on exit status 0. Each call runs from an argument vector with a deadline (group kill)
// and capped output; the log keeps only step name, exit status and duration.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "launch/subprocess.h"

namespace companyos::launch {

struct BridgeOptions {
  std::filesystem::path program;  // the agent_desktop_path setting
  std::chrono::milliseconds call_timeout{10'000};
  std::size_t output_cap = kDefaultOutputCap;
};

// What the log and replies keep of one call.
struct BridgeCall {
  std::string step;  // "list-windows", "focus-window"
  std::optional<int> exit_status;
  bool timed_out = false;
  std::chrono::milliseconds duration{0};
};

struct BridgeFocusReport {
  std::size_t windows = 0;  // as list-windows counted them
  std::vector<BridgeCall> calls;
};

// OK when `program` is an absolute path to an existing, executable regular file; otherwise
// NOT_FOUND, details.reason "bridge_unavailable" with why. Focus and press steps check this
// whenever the setting is not empty, even though a press never goes through the program.
Status check_bridge_program(const std::filesystem::path& program);

// The calls as replies and error details show them: step, exit_status, timed_out, duration_ms.
nlohmann::json bridge_calls_to_json(const std::vector<BridgeCall>& calls);

// Windows listed by list-windows output: its non-blank lines.
std::size_t count_listed_windows(std::string_view output);

// Focuses `app` through the program. Blocked before any call (retry safe, details.reason):
// bridge_unavailable, invalid_app_name; after list-windows: no_window (0 windows) or ambiguous
// (more than one; focus-window is not called). Failed (details.reason, details.calls):
// "bridge_timeout" (TIMEOUT) when a call hit its deadline, "bridge_failed" (INTERNAL) when
// one exited non-zero (retry unsafe once focus-window ran) or could not be started at all
// (details.errno; retry safe).
Result<BridgeFocusReport> focus_via_bridge(const BridgeOptions& options, std::string_view app);

}  // namespace companyos::launch
