#include "daemon/wire/session_replies.h"

#include <gtest/gtest.h>

namespace companyos::wire {
namespace {

using desktop::SessionFacts;
using desktop::X11Facts;

SessionFacts on(x11::DisplayServer server, std::optional<X11Facts> x11) {
  SessionFacts facts;
  facts.display_server = server;
  facts.x11 = std::move(x11);
  facts.accessibility = {.bus = true, .registry = true, .apps = 3, .enabled = std::nullopt, .error = std::nullopt};
  facts.gio_launch = true;
  return facts;
}

TEST(SessionReplies, EachSessionHasTheShapeStatusHadBefore) {
  X11Facts probed{.connected = true, .display = ":99", .error = std::nullopt, .xtest = true,
                  .ewmh_window_manager = true, .window_manager = "Openbox"};
  X11Facts unprobed{.connected = true, .display = ":99", .error = "no XTest"};
  X11Facts refused{.connected = false, .error = "cannot open display :99"};
  SessionFacts no_bus = on(x11::DisplayServer::kNone, std::nullopt);
  no_bus.accessibility = {.bus = false, .registry = false, .apps = std::nullopt, .enabled = std::nullopt,
                          .error = "no accessibility bus"};
  no_bus.gio_launch = false;
  SessionFacts switched_off = on(x11::DisplayServer::kWayland, std::nullopt);
  switched_off.accessibility.enabled = false;
  SessionFacts gnome = on(x11::DisplayServer::kWayland, std::nullopt);
  gnome.wayland = desktop::CompositorFacts{.compositor = "mutter", .mutter_remote_desktop = true,
                                           .mutter_screen_cast = true};
  SessionFacts unknown = on(x11::DisplayServer::kWayland, std::nullopt);
  unknown.wayland = desktop::CompositorFacts{.error = "no session bus: none"};
  struct Case {
    const char* what;
    SessionFacts facts;
    const char* expected;
  };
  const Case cases[] = {
      {"X11 probed", on(x11::DisplayServer::kX11, probed),
       R"({"accessibility":{"apps":3,"bus":true,"registry":true},"display_server":"x11","gio_launch":true,)"
       R"("x11":{"connected":true,"display":":99","ewmh_window_manager":true,"window_manager":"Openbox","xtest":true}})"},
      {"X11 connected, capabilities not probed", on(x11::DisplayServer::kX11, unprobed),
       R"({"accessibility":{"apps":3,"bus":true,"registry":true},"display_server":"x11","gio_launch":true,)"
       R"("x11":{"connected":true,"display":":99","error":"no XTest"}})"},
      {"X11 refused the connection", on(x11::DisplayServer::kX11, refused),
       R"({"accessibility":{"apps":3,"bus":true,"registry":true},"display_server":"x11","gio_launch":true,)"
       R"("x11":{"connected":false,"error":"cannot open display :99"}})"},
      {"accessibility switched off", switched_off,
       R"({"accessibility":{"apps":3,"bus":true,"enabled":false,"registry":true},"display_server":"wayland",)"
       R"("gio_launch":true})"},
      {"Wayland: no x11 member", on(x11::DisplayServer::kWayland, std::nullopt),
       R"({"accessibility":{"apps":3,"bus":true,"registry":true},"display_server":"wayland","gio_launch":true})"},
      {"GNOME Wayland: the compositor and mutter's interfaces", gnome,
       R"({"accessibility":{"apps":3,"bus":true,"registry":true},"display_server":"wayland","gio_launch":true,)"
       R"("wayland":{"compositor":"mutter","mutter_remote_desktop":true,"mutter_screen_cast":true}})"},
      {"Wayland, the session bus not asked", unknown,
       R"({"accessibility":{"apps":3,"bus":true,"registry":true},"display_server":"wayland","gio_launch":true,)"
       R"("wayland":{"compositor":null,"error":"no session bus: none","mutter_remote_desktop":false,)"
       R"("mutter_screen_cast":false}})"},
      {"no display, no bus", no_bus,
       R"({"accessibility":{"bus":false,"error":"no accessibility bus","registry":false},"display_server":"none","gio_launch":false})"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(session_facts_to_json(c.facts).dump(), c.expected) << c.what;
  }
}

}  // namespace
}  // namespace companyos::wire
