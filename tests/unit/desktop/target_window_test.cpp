#include "desktop/target_window.h"

#include <gtest/gtest.h>

namespace companyos::desktop {
namespace {

TEST(RequireX11, RefusesOtherSessionsSayingWhy) {
  struct Case {
    const char* what;
    x11::DisplayServer server;
    const char* request;
    bool refused;
    const char* reason;  // details.reason; "" when none
  };
  const Case cases[] = {
      {"X11 serves everything", x11::DisplayServer::kX11, "screenshot", false, ""},
      {"no display at all", x11::DisplayServer::kNone, "screenshot", true, ""},
      {"Wayland: focusing has no protocol (method)", x11::DisplayServer::kWayland, "focus_window", true,
       "no_wayland_protocol"},
      {"Wayland: focusing has no protocol (command)", x11::DisplayServer::kWayland, "focus-window", true,
       "no_wayland_protocol"},
      {"Wayland: pictures are not built", x11::DisplayServer::kWayland, "screenshot", true, "not_built"},
      {"Wayland: input is not built", x11::DisplayServer::kWayland, "typing with --headed", true, "not_built"},
  };
  for (const Case& c : cases) {
    const Status status = require_x11(c.server, c.request);
    ASSERT_EQ(!status.ok(), c.refused) << c.what;
    if (!c.refused) continue;
    const Error& error = status.error();
    EXPECT_EQ(error.code, ErrorCode::kPlatformNotSupported) << c.what;
    EXPECT_EQ(error.message.rfind(std::string(c.request) + " needs an X11 session; this one is ", 0), 0u)
        << c.what << ": " << error.message;
    EXPECT_EQ(error.details.value("display_server", ""), x11::to_string(c.server)) << c.what;
    EXPECT_EQ(error.details.value("reason", ""), c.reason) << c.what;
    EXPECT_EQ(error.suggestion.empty(), std::string(c.reason).empty()) << c.what;
  }
}

}  // namespace
}  // namespace companyos::desktop
