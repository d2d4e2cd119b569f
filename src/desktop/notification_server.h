// The desktop's notification server (org.freedesktop.Notifications on the session bus), as
// `doctor` reports it: whether one answers, who it is, and whether it shows actions (the
// buttons an approval's notification would carry). Blocking, bounded by `timeout`.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace companyos::desktop {

struct NotificationServer {
  bool answers = false;
  std::string name;     // GetServerInformation's name and version, e.g. "dunst 1.9.0"
  std::vector<std::string> capabilities;
  std::optional<std::string> error;  // why none answered (no session bus, no owner, …)

  bool has(std::string_view capability) const;
};

NotificationServer probe_notification_server(std::chrono::milliseconds timeout);

}  // namespace companyos::desktop
