#include "x11/display_server.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace companyos::x11 {
namespace {

using Env = std::map<std::string, std::string>;

TEST(DetectDisplayServer, FollowsTheEnvironmentAndTheConnectAttempt) {
  struct Case {
    std::string_view name;
    Env env;
    bool x_answers;
    DisplayServer expected;
  };
  const Case cases[] = {
      {"x11 session", {{"DISPLAY", ":0"}}, true, DisplayServer::kX11},
      {"x11 declared", {{"DISPLAY", ":0"}, {"XDG_SESSION_TYPE", "x11"}}, true, DisplayServer::kX11},
      {"DISPLAY set but dead", {{"DISPLAY", ":9"}}, false, DisplayServer::kNone},
      {"nothing set", {}, true, DisplayServer::kNone},
      {"empty DISPLAY", {{"DISPLAY", ""}}, true, DisplayServer::kNone},
      {"wayland socket", {{"WAYLAND_DISPLAY", "wayland-0"}}, false, DisplayServer::kWayland},
      {"XWayland beside wayland",
       {{"WAYLAND_DISPLAY", "wayland-0"}, {"DISPLAY", ":0"}},
       true,
       DisplayServer::kWayland},
      {"session type wayland",
       {{"XDG_SESSION_TYPE", "wayland"}, {"DISPLAY", ":0"}},
       true,
       DisplayServer::kWayland},
      {"empty WAYLAND_DISPLAY",
       {{"WAYLAND_DISPLAY", ""}, {"DISPLAY", ":0"}},
       true,
       DisplayServer::kX11},
      {"tty session", {{"XDG_SESSION_TYPE", "tty"}}, false, DisplayServer::kNone},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    std::string probed;
    const EnvLookup env = [&c](const std::string& name) -> std::optional<std::string> {
      auto found = c.env.find(name);
      if (found == c.env.end()) return std::nullopt;
      return found->second;
    };
    const DisplayAnswers answers = [&c, &probed](const std::string& display) {
      probed = display;
      return c.x_answers;
    };
    EXPECT_EQ(detect_display_server(env, answers), c.expected);
    if (c.expected == DisplayServer::kX11) {
      EXPECT_EQ(probed, c.env.at("DISPLAY"));
    }
  }
}

TEST(DetectDisplayServer, NeverProbesXOnWayland) {
  bool probed = false;
  const EnvLookup env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "WAYLAND_DISPLAY") return "wayland-1";
    if (name == "DISPLAY") return ":0";
    return std::nullopt;
  };
  const DisplayAnswers answers = [&probed](const std::string&) { return probed = true; };
  EXPECT_EQ(detect_display_server(env, answers), DisplayServer::kWayland);
  EXPECT_FALSE(probed);
}

TEST(DisplayServerNames, AreTheProtocolSpellings) {
  EXPECT_EQ(to_string(DisplayServer::kX11), "x11");
  EXPECT_EQ(to_string(DisplayServer::kWayland), "wayland");
  EXPECT_EQ(to_string(DisplayServer::kNone), "none");
}

}  // namespace
}  // namespace companyos::x11
