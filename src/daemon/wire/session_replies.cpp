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

nlohmann::json compositor_facts_to_json(const desktop::CompositorFacts& facts) {
  nlohmann::json json = {{"compositor", facts.compositor.empty() ? nlohmann::json(nullptr) : nlohmann::json(facts.compositor)},
                         {"mutter_remote_desktop", facts.mutter_remote_desktop},
                         {"mutter_screen_cast", facts.mutter_screen_cast}};
  if (facts.error) json["error"] = *facts.error;
  return json;
}

}  // namespace

nlohmann::json session_facts_to_json(const desktop::SessionFacts& facts) {
  nlohmann::json json = {{"display_server", x11::to_string(facts.display_server)},
                         {"accessibility", bus_health_to_json(facts.accessibility)},
                         {"gio_launch", facts.gio_launch}};
  if (facts.x11) json["x11"] = x11_facts_to_json(*facts.x11);
  if (facts.wayland) json["wayland"] = compositor_facts_to_json(*facts.wayland);
  return json;
}

}  // namespace companyos::wire
