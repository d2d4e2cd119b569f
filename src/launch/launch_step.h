// The launch library's entry points for the daemon: open a link or file in a named app
// (`open-link`, `open-file`) and explain how a name resolves (`entries --match`). The
// desktop entries are read afresh on every call (see docs/launching.md for why that is cheap
// enough), and the platform is probed each time.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <string_view>

#include "companyos/result.h"
#include "launch/desktop_index.h"
#include "launch/launch_policy.h"
#include "launch/launcher.h"
#include "launch/platform.h"
#include "launch/target.h"

namespace companyos::launch {

struct LaunchStepOptions {
  PolicyOptions policy;                   // the gio program (injectable) and $PATH lookup
  LauncherOptions launcher;               // launcher deadline, window wait, activation
  std::optional<IndexOptions> index;      // default: application_dirs() of this environment
  std::optional<PlatformFacts> platform;  // default: probe_platform(policy.gio_program)
};

// Plans and runs opening `target` in `app`. A blocked step returns its refusal (details.reason,
// nothing launched, retry safe); not_x11 also when no X connection opens. Otherwise the report
// of what ran — report_status() turns a launch that did not end in front into an error. `stop`
// ends the launch at once with outcome stopped; what was launched keeps running.
Result<LaunchReport> run_launch_step(std::string_view app, const Target& target,
                                     const LaunchStepOptions& options = {},
                                     std::stop_token stop = {});

// The data of `entries --match NAME` (see match_explanation.h).
nlohmann::json explain_app_name(std::string_view name, const LaunchStepOptions& options = {});

}  // namespace companyos::launch
