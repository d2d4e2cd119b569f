#include "daemon/methods/doctor_checks.h"

#include <gtest/gtest.h>

#include <functional>

namespace companyos::daemon::methods {
namespace {

// A session where everything is there.
DoctorFacts healthy() {
  DoctorFacts facts;
  facts.session.display_server = x11::DisplayServer::kX11;
  facts.session.x11 = desktop::X11Facts{.connected = true, .display = ":0", .error = std::nullopt, .xtest = true,
                                        .ewmh_window_manager = true, .window_manager = "Openbox"};
  facts.session.accessibility = {.bus = true, .registry = true, .apps = 2, .enabled = true, .error = std::nullopt};
  facts.session.gio_launch = true;
  facts.apps = {{"mousepad", "GTK", 1, true, false}, {"Chromium", "Chromium", 1, true, false}};
  facts.store_path = "/home/u/.local/state/companyos/companyos.db";
  facts.store_dir_mode = 040700;
  facts.socket_path = "/run/user/1000/companyos/control.sock";
  facts.socket_dir_mode = 040700;
  facts.socket_unit = SocketUnit::kEnabled;
  facts.notifications = {.answers = true, .name = "dunst 1.9.0", .capabilities = {"body", "actions"}, .error = {}};
  return facts;
}

// "state check" of the one named, or "absent".
std::string state_of(const std::vector<Check>& checks, const std::string& name) {
  for (const Check& check : checks) {
    if (check.name == name) return std::string(to_string(check.state));
  }
  return "absent";
}

TEST(Doctor, AHealthySessionIsReadyWithNothingToFix) {
  const auto checks = diagnose(healthy());
  EXPECT_TRUE(ready(checks));
  for (const Check& check : checks) {
    EXPECT_EQ(check.state, CheckState::kOk) << check.name << ": " << check.found;
    EXPECT_TRUE(check.fix.empty()) << check.name;
  }
  EXPECT_EQ(checks.size(), 12u);
}

TEST(Doctor, EachProblemIsFoundWithItsFix) {
  struct Case {
    const char* what;
    std::function<void(DoctorFacts&)> change;
    const char* check;
    const char* state;
    bool ready;
  };
  const Case cases[] = {
      {"no display server", [](DoctorFacts& f) { f.session.display_server = x11::DisplayServer::kNone; f.session.x11.reset(); },
       "display", "problem", false},
      {"Wayland: seen, but no pixels or input", [](DoctorFacts& f) { f.session.display_server = x11::DisplayServer::kWayland; f.session.x11.reset(); },
       "pictures and input", "warning", true},
      {"Wayland: the display itself is fine", [](DoctorFacts& f) { f.session.display_server = x11::DisplayServer::kWayland; f.session.x11.reset(); },
       "display", "ok", true},
      {"the X server refuses", [](DoctorFacts& f) { f.session.x11 = desktop::X11Facts{.connected = false, .error = "no auth"}; },
       "display", "problem", false},
      {"no XTest", [](DoctorFacts& f) { f.session.x11->xtest = false; }, "XTest", "warning", true},
      {"no EWMH window manager", [](DoctorFacts& f) { f.session.x11->ewmh_window_manager = false; },
       "window manager", "problem", false},
      {"no accessibility bus", [](DoctorFacts& f) { f.session.accessibility = {.bus = false, .registry = false, .apps = {}, .enabled = {}, .error = "none"}; },
       "accessibility bus", "problem", false},
      {"no registry", [](DoctorFacts& f) { f.session.accessibility.registry = false; }, "registry", "problem", false},
      {"accessibility switched off", [](DoctorFacts& f) { f.session.accessibility.enabled = false; },
       "accessibility switched on", "problem", false},
      {"the switch unreadable", [](DoctorFacts& f) { f.session.accessibility.enabled.reset(); },
       "accessibility switched on", "warning", true},
      {"the apps unlisted", [](DoctorFacts& f) { f.apps_error = "timeout"; }, "apps", "warning", true},
      {"a Qt app with an empty tree", [](DoctorFacts& f) { f.apps.push_back({"featherpad", "Qt", 0, true, false}); },
       "app featherpad", "warning", true},
      {"a Qt app with windows is fine", [](DoctorFacts& f) { f.apps.push_back({"featherpad", "Qt", 1, true, false}); },
       "app featherpad", "absent", true},
      {"a GTK app without windows is fine (a helper)", [](DoctorFacts& f) { f.apps.push_back({"helper", "gtk", 0, true, false}); },
       "app helper", "absent", true},
      {"Chromium without its page content", [](DoctorFacts& f) { f.apps[1].web_pages_empty = true; },
       "app Chromium", "warning", true},
      {"an app that does not answer", [](DoctorFacts& f) { f.apps[0].responsive = false; }, "app mousepad", "warning", true},
      {"no gio launch", [](DoctorFacts& f) { f.session.gio_launch = false; }, "gio launch", "problem", false},
      {"the store read-only", [](DoctorFacts& f) { f.store_writable = false; f.store_problem = "read-only file system"; },
       "store", "problem", false},
      {"the store's directory open to others", [](DoctorFacts& f) { f.store_dir_mode = 040755; }, "store", "warning", true},
      {"the socket's directory open to others", [](DoctorFacts& f) { f.socket_dir_mode = 040750; }, "socket", "problem", false},
      {"the socket unit disabled", [](DoctorFacts& f) { f.socket_unit = SocketUnit::kDisabled; }, "socket unit", "warning", true},
      {"the socket unit masked", [](DoctorFacts& f) { f.socket_unit = SocketUnit::kMasked; }, "socket unit", "warning", true},
      {"no unit installed: started by hand", [](DoctorFacts& f) { f.socket_unit = SocketUnit::kNotInstalled; }, "socket unit", "ok", true},
      {"no user manager: started by hand", [](DoctorFacts& f) { f.socket_unit = SocketUnit::kNoUserManager; }, "socket unit", "ok", true},
      {"systemctl said nothing usable", [](DoctorFacts& f) { f.socket_unit = SocketUnit::kUnknown; }, "socket unit", "warning", true},
      {"no notification server", [](DoctorFacts& f) { f.notifications = {.answers = false, .name = {}, .capabilities = {}, .error = "no owner"}; },
       "notifications", "warning", true},
      {"a notification server without actions", [](DoctorFacts& f) { f.notifications.capabilities = {"body"}; },
       "notifications", "warning", true},
  };
  for (const Case& c : cases) {
    DoctorFacts facts = healthy();
    c.change(facts);
    const auto checks = diagnose(facts);
    EXPECT_EQ(state_of(checks, c.check), c.state) << c.what;
    EXPECT_EQ(ready(checks), c.ready) << c.what;
    for (const Check& check : checks) {
      EXPECT_EQ(check.fix.empty(), check.state == CheckState::kOk) << c.what << ": " << check.name;
    }
  }
}

// On Wayland the doctor names the compositor and what it offers for pictures and input.
TEST(Doctor, OnWaylandSaysWhatTheCompositorOffers) {
  struct Case {
    const char* what;
    desktop::CompositorFacts compositor;
    const char* display_says;
    const char* offer_says;
  };
  const Case cases[] = {
      {"GNOME", {.compositor = "mutter", .mutter_remote_desktop = true, .mutter_screen_cast = true},
       "compositor mutter", "mutter's RemoteDesktop and ScreenCast interfaces answer here"},
      {"mutter without its screen casts", {.compositor = "mutter", .mutter_remote_desktop = true},
       "compositor mutter", "only mutter's RemoteDesktop interface answers"},
      {"KDE", {.compositor = "kwin"}, "compositor kwin", "offers no interface companyOS knows"},
      {"unknown", {}, "a compositor companyOS does not recognise", "offers no interface companyOS knows"},
      {"no session bus", {.error = "no session bus: none"}, "a compositor companyOS does not recognise",
       "could not be asked what the compositor offers (no session bus: none)"},
  };
  for (const Case& c : cases) {
    DoctorFacts facts = healthy();
    facts.session.display_server = x11::DisplayServer::kWayland;
    facts.session.x11.reset();
    facts.session.wayland = c.compositor;
    const auto checks = diagnose(facts);
    std::string display;
    std::string offer;
    for (const Check& check : checks) {
      if (check.name == "display") display = check.found;
      if (check.name == "pictures and input") offer = check.found;
    }
    EXPECT_NE(display.find(c.display_says), std::string::npos) << c.what << ": " << display;
    EXPECT_NE(offer.find(c.offer_says), std::string::npos) << c.what << ": " << offer;
    EXPECT_NE(offer.find("not built"), std::string::npos) << c.what << ": " << offer;
    EXPECT_TRUE(ready(checks)) << c.what;
  }
}

TEST(Doctor, WithoutABusNothingAboutAppsIsClaimed) {
  DoctorFacts facts = healthy();
  facts.session.accessibility = {.bus = false, .registry = false, .apps = {}, .enabled = {}, .error = "none"};
  const auto checks = diagnose(facts);
  EXPECT_EQ(state_of(checks, "registry"), "absent");
  EXPECT_EQ(state_of(checks, "apps"), "absent");
  EXPECT_EQ(state_of(checks, "accessibility switched on"), "absent");
}

TEST(Doctor, TheReplyNamesEachCheckWithANullFixWhenOk) {
  DoctorFacts facts = healthy();
  facts.session.x11->xtest = false;
  const nlohmann::json json = checks_to_json(diagnose(facts));
  EXPECT_EQ(json[0], nlohmann::json({{"check", "display"}, {"state", "ok"}, {"found", "X11 :0"}, {"fix", nullptr}}));
  EXPECT_EQ(json[1]["state"], "warning");
  EXPECT_TRUE(json[1]["fix"].is_string());
}

}  // namespace
}  // namespace companyos::daemon::methods
