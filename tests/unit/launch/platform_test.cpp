#include "launch/platform.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "temp_dir.h"

namespace companyos::launch {
namespace {

using std::chrono::milliseconds;

std::string script(const companyos::testing::TempDir& dir, const std::string& name,
                   const std::string& body) {
  const std::string path = dir.file(name);
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(GioHasLaunch, AsksTheCommandItself) {
  companyos::testing::TempDir dir;
  struct Case {
    std::string_view what;
    std::string gio;
    bool expected;
  };
  const Case cases[] = {
      {"the installed gio", "gio", true},
      {"a gio without launch", script(dir, "old-gio", "[ \"$2\" = launch ] && exit 1; exit 0"),
       false},
      {"a gio that knows launch", script(dir, "new-gio", "[ \"$1 $2\" = 'help launch' ]"), true},
      {"a gio that hangs", script(dir, "hung-gio", "exec sleep 30"), false},
      {"no such program", "/no/such/gio", false},
      {"not a program", dir.path().string(), false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    // A real gio loads its modules first, which on a loaded machine (a sanitizer run
    // beside a build) took over a second; only the hung one must be cut short.
    const bool hangs = c.gio.find("hung-gio") != std::string::npos;
    EXPECT_EQ(gio_has_launch(c.gio, hangs ? milliseconds(1000) : milliseconds(15000)), c.expected);
  }
}

TEST(PlatformRefusals, NameWhatIsMissing) {
  struct Case {
    PlatformFacts facts;
    std::vector<std::string> reasons;
  };
  const Case cases[] = {
      {{x11::DisplayServer::kX11, true}, {}},
      {{x11::DisplayServer::kWayland, true}, {"not_x11"}},
      {{x11::DisplayServer::kNone, true}, {"not_x11"}},
      {{x11::DisplayServer::kX11, false}, {"no_gio_launch"}},
      {{x11::DisplayServer::kWayland, false}, {"not_x11", "no_gio_launch"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> reasons;
    for (const Refusal& refusal : platform_refusals(c.facts, "/opt/gio")) {
      reasons.emplace_back(to_string(refusal.reason));
      EXPECT_EQ(refusal.code, ErrorCode::kPlatformNotSupported);
      EXPECT_FALSE(refusal.suggestion.empty());
    }
    EXPECT_EQ(reasons, c.reasons);
  }
  const auto wayland = platform_refusals({x11::DisplayServer::kWayland, true});
  EXPECT_NE(wayland.front().message.find("Wayland"), std::string::npos);
  EXPECT_EQ(wayland.front().details.at("display_server"), "wayland");
  const auto no_gio = platform_refusals({x11::DisplayServer::kX11, false}, "/opt/gio");
  EXPECT_NE(no_gio.front().message.find("/opt/gio"), std::string::npos);
}

}  // namespace
}  // namespace companyos::launch
