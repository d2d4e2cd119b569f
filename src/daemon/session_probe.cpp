#include "daemon/session_probe.h"

#include "a11y/observer.h"
#include "core/deadline.h"
#include "launch/platform.h"
#include "x11/capabilities.h"
#include "x11/connection.h"
#include "x11/display_server.h"

namespace companyos::daemon {
namespace {

nlohmann::json probe_x11() {
  auto connection = x11::Connection::open();
  if (!connection) return {{"connected", false}, {"error", connection.error().message}};
  auto caps = x11::probe_capabilities(*connection);
  if (!caps) return {{"connected", true}, {"display", connection->name()}, {"error", caps.error().message}};
  return {{"connected", true},
          {"display", connection->name()},
          {"xtest", caps->xtest},
          {"ewmh_window_manager", caps->ewmh_window_manager},
          {"window_manager", caps->window_manager_name}};
}

nlohmann::json probe_accessibility(a11y::Observer& observer, Deadline deadline) {
  const a11y::BusHealth health = observer.bus_health(deadline);
  nlohmann::json out = {{"bus", health.bus}, {"registry", health.registry}};
  if (health.error) out["error"] = *health.error;
  if (health.apps) out["apps"] = *health.apps;
  return out;
}

}  // namespace

nlohmann::json probe_session(a11y::Observer& observer, std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  const auto server = x11::detect_display_server();
  nlohmann::json out = {{"display_server", x11::to_string(server)}};
  if (server == x11::DisplayServer::kX11) out["x11"] = probe_x11();
  out["accessibility"] = probe_accessibility(observer, deadline);
  // Asked once per daemon: spawning gio on every status would cost more than the rest.
  static const bool gio_launch = launch::gio_has_launch(launch::kDefaultGio, std::chrono::milliseconds(2000));
  out["gio_launch"] = gio_launch;
  return out;
}

}  // namespace companyos::daemon
