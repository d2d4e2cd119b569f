// Which display server this session runs on. Wayland wins even when DISPLAY is set,
// because that DISPLAY is XWayland, which sees only X clients; an X server counts only if
// it answers.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace companyos::x11 {

enum class DisplayServer { kX11, kWayland, kNone };

std::string_view to_string(DisplayServer server);  // "x11", "wayland", "none"

// Looks up an environment variable; nullopt when it is unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
// Whether an X server answers on the display named.
using DisplayAnswers = std::function<bool(const std::string& display)>;

// WAYLAND_DISPLAY set or XDG_SESSION_TYPE=wayland → wayland; else a DISPLAY that answers →
// x11; else none. Empty variables count as unset.
DisplayServer detect_display_server(const EnvLookup& env, const DisplayAnswers& answers);

// The same over this process's environment, trying to open the X display.
DisplayServer detect_display_server();

}  // namespace companyos::x11
