#include "launch/launch_step.h"

#include <utility>

#include "launch/match_explanation.h"
#include "x11/connection.h"

namespace companyos::launch {
namespace {

DesktopIndex load_index(const LaunchStepOptions& options) {
  return options.index ? DesktopIndex::load(*options.index) : DesktopIndex::load();
}

PlatformFacts platform_of(const LaunchStepOptions& options) {
  return options.platform ? *options.platform : probe_platform(options.policy.gio_program);
}

}  // namespace

Result<LaunchReport> run_launch_step(std::string_view app, const Target& target,
                                     const LaunchStepOptions& options, std::stop_token stop) {
  auto plan = plan_launch(load_index(options), app, target, platform_of(options), options.policy);
  if (!plan) return std::move(plan).take_error();
  auto connection = x11::Connection::open();
  if (!connection) {
    Refusal refusal = make_refusal(
        RefusalReason::kNotX11, "cannot open the X11 display: " + connection.error().message,
        {{"app", std::string(app)}}, "check that DISPLAY names a running X server");
    return to_error(refusal);
  }
  return run_plan(*plan, *connection, options.launcher, std::move(stop));
}

nlohmann::json explain_app_name(std::string_view name, const LaunchStepOptions& options) {
  return to_json(explain_match(load_index(options), name, platform_of(options), options.policy));
}

}  // namespace companyos::launch
