#include "x11/display_server.h"

#include <cstdlib>

#include "x11/connection.h"

namespace companyos::x11 {

std::string_view to_string(DisplayServer server) {
  switch (server) {
    case DisplayServer::kX11:
      return "x11";
    case DisplayServer::kWayland:
      return "wayland";
    case DisplayServer::kNone:
      return "none";
  }
  return "none";
}

DisplayServer detect_display_server(const EnvLookup& env, const DisplayAnswers& answers) {
  const auto set = [&env](const std::string& name) -> std::optional<std::string> {
    auto value = env(name);
    if (!value || value->empty()) return std::nullopt;
    return value;
  };
  if (set("WAYLAND_DISPLAY") || set("XDG_SESSION_TYPE") == "wayland") {
    return DisplayServer::kWayland;
  }
  if (auto display = set("DISPLAY"); display && answers(*display)) return DisplayServer::kX11;
  return DisplayServer::kNone;
}

DisplayServer detect_display_server() {
  const EnvLookup process_env = [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  const DisplayAnswers x_server_answers = [](const std::string& display) {
    return Connection::open(display).ok();
  };
  return detect_display_server(process_env, x_server_answers);
}

}  // namespace companyos::x11
