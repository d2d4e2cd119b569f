// D-Bus addresses that come from outside (an app's GetApplicationBusAddress, the session
// bus's org.a11y.Bus.GetAddress) are data, never handed to a D-Bus library as they came:
// GDBus and sd-bus both honour transports that start a program (`unixexec:`) or reach
// beyond this machine (`tcp:`). Only the transports AT-SPI bridges and the bus launcher
// use are accepted — one `unix:` entry with `path=` or `abstract=` (and an optional
// `guid=`) — and the address a library gets is the one rebuilt from what was parsed.
#pragma once

#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::a11y {

struct PeerAddress {
  enum class Kind { kPath, kAbstract };
  Kind kind = Kind::kPath;
  std::string location;  // the socket's path or abstract name, unescaped
  std::string guid;      // 32 hex digits, or empty
};

// The one accepted shape, or an error (APP_NOT_FOUND, details.kind "bad_app_address",
// details.reason saying what was refused; the text itself is never echoed back).
Result<PeerAddress> parse_peer_address(std::string_view text);

// The address to give a D-Bus library: only what parse_peer_address accepted, escaped.
std::string rebuilt_address(const PeerAddress& address);

}  // namespace companyos::a11y
