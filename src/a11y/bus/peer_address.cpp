#include "a11y/bus/peer_address.h"

#include <sys/un.h>

#include <cstddef>
#include <optional>

#include <gio/gio.h>

#include "core/glib_handles.h"

namespace companyos::a11y {
namespace {

// A socket's name must fit sockaddr_un.sun_path with its terminating (path) or leading
// (abstract) NUL.
constexpr std::size_t kMaxLocation = sizeof(sockaddr_un::sun_path) - 1;
// Far longer than any real address; a longer one is refused before it is looked at.
constexpr std::size_t kMaxAddressText = 4096;

Error refused(std::string reason) {
  return make_error(ErrorCode::kAppNotFound, "the D-Bus address given is not one this daemon connects to",
                    {{"kind", "bad_app_address"}, {"reason", std::move(reason)}},
                    "only unix:path= and unix:abstract= addresses are used; the app is read through "
                    "the accessibility bus instead");
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The D-Bus spec's value escaping: %XX for any byte, and printable ASCII other than the
// address syntax's own characters as it is. nullopt for anything else.
std::optional<std::string> unescaped_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == '%') {
      if (i + 2 >= value.size()) return std::nullopt;
      const int high = hex_digit(value[i + 1]);
      const int low = hex_digit(value[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else if (c > ' ' && c < 0x7f && c != ',' && c != ';' && c != '=') {
      out.push_back(c);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

bool is_guid(std::string_view text) {
  if (text.size() != 32) return false;
  for (char c : text) {
    if (hex_digit(c) < 0) return false;
  }
  return true;
}

// A transport's name as it may be shown: letters and digits only, else a neutral word.
std::string shown_transport(std::string_view transport) {
  if (transport.empty() || transport.size() > 32) return "an unnamed transport";
  for (char c : transport) {
    if (!g_ascii_isalnum(c)) return "an unnamed transport";
  }
  return std::string(transport);
}

}  // namespace

Result<PeerAddress> parse_peer_address(std::string_view text) {
  if (text.empty()) return refused("the address is empty");
  if (text.size() > kMaxAddressText) return refused("the address is longer than 4096 bytes");
  if (text.find(';') != std::string_view::npos) {
    return refused("the address lists more than one entry");
  }
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return refused("the address has no transport");
  const std::string_view transport = text.substr(0, colon);
  if (transport != "unix") {
    return refused("transport " + shown_transport(transport) + " is not accepted");
  }
  PeerAddress address;
  bool located = false;
  bool guided = false;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view pair = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (comma != std::string_view::npos && rest.empty()) return refused("the address ends in a comma");
    const std::size_t equals = pair.find('=');
    if (equals == std::string_view::npos) return refused("a key has no value");
    const std::string_view key = pair.substr(0, equals);
    auto value = unescaped_value(pair.substr(equals + 1));
    if (!value) return refused("a value is not escaped as D-Bus addresses are");
    if (key == "path" || key == "abstract") {
      if (located) return refused("the address names more than one socket");
      located = true;
      address.kind = key == "path" ? PeerAddress::Kind::kPath : PeerAddress::Kind::kAbstract;
      address.location = std::move(*value);
    } else if (key == "guid") {
      if (guided || !is_guid(*value)) return refused("the guid is not 32 hex digits");
      guided = true;
      address.guid = std::move(*value);
    } else {
      return refused("a unix address may name only path, abstract and guid");
    }
  }
  if (!located) return refused("the address names no socket");
  if (address.location.empty() || address.location.size() > kMaxLocation ||
      address.location.find('\0') != std::string::npos) {
    return refused("the socket's name is empty, too long or holds a NUL byte");
  }
  if (address.kind == PeerAddress::Kind::kPath && address.location.front() != '/') {
    return refused("the socket's path is not absolute");
  }
  return address;
}

std::string rebuilt_address(const PeerAddress& address) {
  // GLib's own escaping, so the library reads back exactly the location we parsed.
  GCharPtr escaped(g_dbus_address_escape_value(address.location.c_str()));
  std::string text = address.kind == PeerAddress::Kind::kPath ? "unix:path=" : "unix:abstract=";
  text += escaped.get();
  if (!address.guid.empty()) text += ",guid=" + address.guid;
  return text;
}

}  // namespace companyos::a11y
