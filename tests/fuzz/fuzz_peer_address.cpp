// D-Bus addresses from outside (an app's GetApplicationBusAddress, the session bus's
// org.a11y.Bus.GetAddress) through a11y::parse_peer_address and rebuilt_address.
// Properties: only a unix path or abstract socket is ever accepted; what is rebuilt for the
// library is one entry of the unix transport, GLib takes it as a supported address and
// names no transport that runs a program, and it parses back to the same socket and guid.
//
// Input: the address text.
#include <cstddef>
#include <cstdint>
#include <string>

#include <gio/gio.h>

#include "a11y/bus/peer_address.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const std::string_view text = fuzz::as_text(data, size);
  auto parsed = a11y::parse_peer_address(text);
  if (!parsed) {
    FUZZ_CHECK(parsed.error().code == ErrorCode::kAppNotFound);
    FUZZ_CHECK(parsed.error().details.value("kind", std::string()) == "bad_app_address");
    return 0;
  }
  FUZZ_CHECK(!parsed->location.empty());
  FUZZ_CHECK(parsed->location.find('\0') == std::string::npos);
  const std::string rebuilt = a11y::rebuilt_address(*parsed);
  FUZZ_CHECK(rebuilt.rfind("unix:", 0) == 0);
  FUZZ_CHECK(rebuilt.find(';') == std::string::npos);
  FUZZ_CHECK(g_dbus_is_supported_address(rebuilt.c_str(), nullptr));
  auto again = a11y::parse_peer_address(rebuilt);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->kind == parsed->kind);
  FUZZ_CHECK(again->location == parsed->location);
  FUZZ_CHECK(again->guid == parsed->guid);
  return 0;
}
