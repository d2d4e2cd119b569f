#include "daemon/wire/session_replies.h"

namespace companyos::wire {
namespace {

nlohmann::json x11_facts_to_json(const desktop::X11Facts& facts) {
  if (!facts.connected) return {{"connected", false}, {"error", facts.error.value_or("")}};
  if (facts.error) {
    return {{"connected", true}, {"display", facts.display}, {"error", *facts.error}};
  }
  return {{"connected", true},
          {"display", facts.display},
          {"xtest", facts.xtest},
          {"ewmh_window_manager", facts.ewmh_window_manager},
          {"window_manager", facts.window_manager}};
}

nlohmann::json bus_health_to_json(const a11y::BusHealth& health) {
  nlohmann::json json = {{"bus", health.bus}, {"registry", health.registry}};
  if (health.error) json["error"] = *health.error;
  if (health.apps) json["apps"] = *health.apps;
  if (health.enabled) json["enabled"] = *health.enabled;
  return json;
}

}  // namespace

nlohmann::json session_facts_to_json(const desktop::SessionFacts& facts) {
  nlohmann::json json = {{"display_server", x11::to_string(facts.display_server)},
                         {"accessibility", bus_health_to_json(facts.accessibility)},
                         {"gio_launch", facts.gio_launch}};
  if (facts.x11) json["x11"] = x11_facts_to_json(*facts.x11);
  return json;
}

}  // namespace companyos::wire
