#include "a11y/bus/peer_address.h"

#include <gtest/gtest.h>

#include <gio/gio.h>

#include <string>

namespace companyos::a11y {
namespace {

TEST(ParsePeerAddress, AcceptsOnlyOneUnixSocketEntry) {
  struct Case {
    std::string text;
    bool ok;
    std::string rebuilt;  // when ok
  };
  const Case cases[] = {
      // What AT-SPI bridges and the bus launcher give.
      {"unix:path=/run/user/1000/at-spi2-ABC123/socket", true, "unix:path=/run/user/1000/at-spi2-ABC123/socket"},
      {"unix:abstract=/tmp/dbus-q1w2e3,guid=0123456789abcdef0123456789ABCDEF", true,
       "unix:abstract=/tmp/dbus-q1w2e3,guid=0123456789abcdef0123456789ABCDEF"},
      {"unix:guid=0123456789abcdef0123456789abcdef,path=/tmp/s", true,
       "unix:path=/tmp/s,guid=0123456789abcdef0123456789abcdef"},
      // Escapes are read, and written again by GLib's rule.
      {"unix:path=/tmp/a%20b", true, "unix:path=/tmp/a%20b"},
      {"unix:path=/tmp/%41", true, "unix:path=/tmp/A"},
      {"unix:path=/tmp/caf%c3%a9", true, "unix:path=/tmp/caf%C3%A9"},
      // Transports that run a program or leave the machine.
      {"unixexec:path=/bin/sh,argv0=sh,argv1=-c,argv2=touch%20/tmp/x", false, ""},
      {"unixexec:path=/bin/sh;unix:path=/run/user/1000/at-spi/bus", false, ""},
      {"unix:path=/run/user/1000/at-spi/bus;unixexec:path=/bin/sh", false, ""},
      {"tcp:host=127.0.0.1,port=4000", false, ""},
      {"nonce-tcp:host=localhost,port=1", false, ""},
      {"launchd:env=X", false, ""},
      {"autolaunch:", false, ""},
      {"systemd:", false, ""},
      {"UNIX:path=/tmp/s", false, ""},
      // Listen-only keys and unknown keys.
      {"unix:tmpdir=/tmp", false, ""},
      {"unix:dir=/tmp", false, ""},
      {"unix:runtime=yes", false, ""},
      {"unix:path=/tmp/s,argv0=sh", false, ""},
      // Malformed.
      {"", false, ""},
      {"unix", false, ""},
      {"unix:", false, ""},
      {"unix:path", false, ""},
      {"unix:path=", false, ""},
      {"unix:path=relative/socket", false, ""},
      {"unix:path=/tmp/a,path=/tmp/b", false, ""},
      {"unix:path=/tmp/a,abstract=b", false, ""},
      {"unix:path=/tmp/s,", false, ""},
      {"unix:path=/tmp/s,guid=xyz", false, ""},
      {"unix:path=/tmp/s,guid=0123456789abcdef0123456789abcdef,guid=0123456789abcdef0123456789abcdef", false, ""},
      {"unix:path=/tmp/a b", false, ""},
      {"unix:path=/tmp/%", false, ""},
      {"unix:path=/tmp/%4", false, ""},
      {"unix:path=/tmp/%zz", false, ""},
      {"unix:path=/tmp/a%00b", false, ""},
      {"unix:path=/tmp/\x1b]0;x\x07", false, ""},
      {"unix:path=/" + std::string(107, 'a'), false, ""},
      {"unix:path=/" + std::string(106, 'a'), true, "unix:path=/" + std::string(106, 'a')},
      {"unix:path=/tmp/" + std::string(5000, 'a'), false, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    auto parsed = parse_peer_address(c.text);
    ASSERT_EQ(parsed.ok(), c.ok);
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.error().code, ErrorCode::kAppNotFound);
      EXPECT_EQ(parsed.error().details.at("kind"), "bad_app_address");
      // The refused text is never echoed: it may hold anything.
      EXPECT_EQ(parsed.error().message.find(c.text.empty() ? "\x01" : c.text), std::string::npos);
      continue;
    }
    const std::string rebuilt = rebuilt_address(*parsed);
    EXPECT_EQ(rebuilt, c.rebuilt);
    EXPECT_TRUE(g_dbus_is_supported_address(rebuilt.c_str(), nullptr));
    // What the library reads back is exactly what was parsed.
    auto again = parse_peer_address(rebuilt);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->location, parsed->location);
    EXPECT_EQ(again->kind, parsed->kind);
    EXPECT_EQ(again->guid, parsed->guid);
  }
}

TEST(ParsePeerAddress, NamesARefusedTransportOnlyWhenItIsPlainText) {
  auto named = parse_peer_address("unixexec:path=/bin/sh");
  ASSERT_FALSE(named.ok());
  EXPECT_EQ(named.error().details.at("reason"), "transport unixexec is not accepted");
  auto odd = parse_peer_address("\x1b[2J:path=/x");
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().details.at("reason"), "transport an unnamed transport is not accepted");
}

}  // namespace
}  // namespace companyos::a11y
