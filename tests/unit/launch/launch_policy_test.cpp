#include "launch/launch_policy.h"

#include <gtest/gtest.h>

#include "entry_fixture.h"
#include "launch/match_explanation.h"

namespace companyos::launch {
namespace {

using testing::app_body;
using testing::EntryFixture;

constexpr PlatformFacts kX11WithGio{x11::DisplayServer::kX11, true};

// Entries for every refusal, each reachable by its own name.
class LaunchPolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string app = fixture_.program("viewer");
    const std::string shell = fixture_.program("bash");
    const std::string python = fixture_.program("python3.11");
    fixture_.write(0, "viewer.desktop",
                   app_body("Viewer", app + " %U",
                            "StartupWMClass=ViewerWin\nMimeType=x-scheme-handler/https;\n"));
    fixture_.write(0, "browser.desktop",
                   app_body("Browser", app + " --new-window %u",
                            "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n"));
    fixture_.write(0, "twin-a.desktop", app_body("Twin", app + " %f"));
    fixture_.write(0, "twin-b.desktop", app_body("Twin", app + " %f"));
    fixture_.write(0, "files-only.desktop", app_body("Files Only", app + " %F"));
    fixture_.write(0, "broken-exec.desktop", app_body("Broken", app + " a;b %f"));
    fixture_.write(0, "in-terminal.desktop",
                   app_body("In Terminal", app + " %f", "Terminal=true\n"));
    fixture_.write(0, "terminal-emulator.desktop",
                   app_body("Emulator", app + " %f", "Categories=System;TerminalEmulator;\n"));
    fixture_.write(0, "shell.desktop", app_body("Shell", shell + " -c viewer %f"));
    fixture_.write(0, "script.desktop", app_body("Script", python + " /opt/app.py %f"));
    fixture_.write(0, "env-shell.desktop", app_body("Env Shell", "env FOO=1 " + shell + " %f"));
    fixture_.write(0, "env-app.desktop", app_body("Env App", "env -u HOME LANG=C " + app + " %f"));
    file_ = fixture_.root() / "document.txt";
    std::ofstream(file_) << "text";
  }

  Result<LaunchPlan> plan(const std::string& app, const Target& target,
                          const PlatformFacts& platform = kX11WithGio) {
    return plan_launch(fixture_.index(), app, target, platform, {"/opt/gio", locate_in_path});
  }

  Target file_target() const { return {TargetKind::kFile, file_.string()}; }

  EntryFixture fixture_;
  std::filesystem::path file_;
};

TEST_F(LaunchPolicy, BlocksEachStepWithAStableReason) {
  struct Case {
    std::string_view what;
    std::string app;
    Target target;
    PlatformFacts platform;
    std::string reason;
    ErrorCode code;
  };
  const Target link{TargetKind::kLink, "https://example.org/"};
  const Case cases[] = {
      {"no entry", "nothing-like-it", link, kX11WithGio, "no_entry", ErrorCode::kAppNotFound},
      {"ambiguous", "twin", file_target(), kX11WithGio, "ambiguous_entry",
       ErrorCode::kAmbiguousTarget},
      {"Exec breaks the spec", "broken", file_target(), kX11WithGio, "invalid_entry",
       ErrorCode::kPolicyDenied},
      {"Terminal=true", "in-terminal", file_target(), kX11WithGio, "terminal_entry",
       ErrorCode::kPolicyDenied},
      {"TerminalEmulator", "emulator", file_target(), kX11WithGio, "terminal_entry",
       ErrorCode::kPolicyDenied},
      {"shell", "shell", file_target(), kX11WithGio, "shell_entry", ErrorCode::kPolicyDenied},
      {"script interpreter", "script", file_target(), kX11WithGio, "shell_entry",
       ErrorCode::kPolicyDenied},
      {"shell behind env", "env-shell", file_target(), kX11WithGio, "shell_entry",
       ErrorCode::kPolicyDenied},
      {"link to a files-only entry", "files-only", link, kX11WithGio, "cannot_take_target",
       ErrorCode::kActionNotSupported},
      {"missing file",
       "viewer",
       {TargetKind::kFile, "/no/such/file.txt"},
       kX11WithGio,
       "cannot_take_target",
       ErrorCode::kNotFound},
      {"bad link",
       "browser",
       {TargetKind::kLink, "https://exa mple.org"},
       kX11WithGio,
       "cannot_take_target",
       ErrorCode::kInvalidArgs},
      {"no gio launch",
       "viewer",
       file_target(),
       {x11::DisplayServer::kX11, false},
       "no_gio_launch",
       ErrorCode::kPlatformNotSupported},
      {"wayland",
       "viewer",
       file_target(),
       {x11::DisplayServer::kWayland, true},
       "not_x11",
       ErrorCode::kPlatformNotSupported},
      {"no display",
       "viewer",
       file_target(),
       {x11::DisplayServer::kNone, true},
       "not_x11",
       ErrorCode::kPlatformNotSupported},
      {"platform first, before the name",
       "nothing-like-it",
       link,
       {x11::DisplayServer::kWayland, false},
       "not_x11",
       ErrorCode::kPlatformNotSupported},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    auto planned = plan(c.app, c.target, c.platform);
    ASSERT_FALSE(planned.ok());
    const Error& error = planned.error();
    EXPECT_EQ(error.details.value("reason", ""), c.reason) << error.message;
    EXPECT_EQ(error.code, c.code) << error.message;
    EXPECT_EQ(error.details.value("delivery", ""), "not_delivered");
    EXPECT_EQ(error.details.value("app", ""), c.app);
    EXPECT_EQ(error.retry, Retry::kSafe);
    EXPECT_FALSE(error.message.empty());
  }
}

TEST_F(LaunchPolicy, NamesTheCandidatesOfAnAmbiguousName) {
  auto planned = plan("Twin", file_target());
  ASSERT_FALSE(planned.ok());
  EXPECT_NE(planned.error().message.find("twin-a.desktop, twin-b.desktop"), std::string::npos);
  const auto& candidates = planned.error().details.at("candidates");
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].at("id"), "twin-a.desktop");
  EXPECT_EQ(candidates[1].at("matched"), "Twin");
  EXPECT_EQ(planned.error().details.at("field"), "name");
}

TEST_F(LaunchPolicy, ShowsTheInterpreterBehindAShellEntry) {
  auto planned = plan("env-shell", file_target());
  ASSERT_FALSE(planned.ok());
  EXPECT_EQ(planned.error().details.at("interpreter"), "bash");
  EXPECT_NE(planned.error().message.find("'bash'"), std::string::npos);
}

TEST_F(LaunchPolicy, PlansGioLaunchWithTheEntryFileAndTheTargetAsIs) {
  const std::string odd_file = (fixture_.root() / "a$b;c&d\"e'f g.txt").string();
  std::ofstream(odd_file) << "x";
  struct Case {
    std::string app;
    Target target;
    std::string entry_id;
    MatchField decided_by;
    std::vector<std::string> classes;
  };
  const Case cases[] = {
      {"ViewerWin",
       {TargetKind::kFile, odd_file},
       "viewer.desktop",
       MatchField::kStartupWmClass,
       {"ViewerWin"}},
      {"browser",
       {TargetKind::kLink, "https://example.org/a?b=c&d=%24#e"},
       "browser.desktop",
       MatchField::kDesktopId,
       {"browser", "viewer"}},
      {"Env App",
       {TargetKind::kFile, "file://" + file_.string()},
       "env-app.desktop",
       MatchField::kName,
       {"Env App", "env-app", "viewer"}},
      // open_app: the app alone, nothing after the entry file (no field code is needed).
      {"ViewerWin", {TargetKind::kApp, ""}, "viewer.desktop", MatchField::kStartupWmClass, {"ViewerWin"}},
      {"browser", {TargetKind::kApp, ""}, "browser.desktop", MatchField::kDesktopId, {"browser", "viewer"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.app);
    auto planned = plan(c.app, c.target);
    ASSERT_TRUE(planned.ok()) << planned.error().message;
    EXPECT_EQ(planned->app, c.app);
    EXPECT_EQ(planned->entry.id, c.entry_id);
    EXPECT_EQ(planned->decided_by, c.decided_by);
    std::vector<std::string> argv = {"/opt/gio", "launch", (fixture_.dir(0) / c.entry_id).string()};
    if (c.target.kind != TargetKind::kApp) argv.push_back(c.target.value);
    EXPECT_EQ(planned->argv, argv);
    EXPECT_EQ(planned->expected_classes, c.classes);
  }
}

TEST_F(LaunchPolicy, ExplainsHowANameResolves) {
  struct Case {
    std::string name;
    PlatformFacts platform;
    nlohmann::json deciding_field;
    nlohmann::json chosen_id;
    std::size_t candidates;
    std::vector<std::string> reasons;
  };
  const Case cases[] = {
      {"viewerwin", kX11WithGio, "startup_wm_class", "viewer.desktop", 1, {}},
      {"twin", kX11WithGio, "name", nullptr, 2, {"ambiguous_entry"}},
      {"nothing", kX11WithGio, nullptr, nullptr, 0, {"no_entry"}},
      {"in-terminal",
       {x11::DisplayServer::kWayland, false},
       "desktop_id",
       "in-terminal.desktop",
       1,
       {"not_x11", "no_gio_launch", "terminal_entry"}},
      {"broken-exec", kX11WithGio, "desktop_id", "broken-exec.desktop", 1, {"invalid_entry"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const nlohmann::json out =
        to_json(explain_match(fixture_.index(), c.name, c.platform, {"gio", locate_in_path}));
    EXPECT_EQ(out.at("query"), c.name);
    EXPECT_EQ(out.at("deciding_field"), c.deciding_field);
    EXPECT_EQ(out.at("chosen").is_null() ? nlohmann::json(nullptr) : out.at("chosen").at("id"),
              c.chosen_id);
    if (c.candidates > 0) {
      EXPECT_EQ(out.at("candidates").size(), c.candidates);
    }
    std::vector<std::string> reasons;
    for (const auto& refusal : out.at("refusals")) reasons.push_back(refusal.at("reason"));
    EXPECT_EQ(reasons, c.reasons);
    EXPECT_EQ(out.at("launchable"), c.reasons.empty());
    EXPECT_EQ(out.at("fields_tried").at(0).at("field"), "startup_wm_class");
    EXPECT_EQ(out.at("dirs").size(), 3u);
  }
}

TEST_F(LaunchPolicy, ExplainsWhatTheChosenEntryAccepts) {
  const auto accepts = [this](const std::string& name) {
    return to_json(explain_match(fixture_.index(), name, kX11WithGio)).at("accepts");
  };
  EXPECT_EQ(accepts("browser"), (nlohmann::json{{"links", {"http", "https"}}, {"files", true}}));
  EXPECT_EQ(accepts("files-only"),
            (nlohmann::json{{"links", nlohmann::json::array()}, {"files", true}}));
  EXPECT_TRUE(accepts("nothing").is_null());
}

TEST_F(LaunchPolicy, ExplainsIgnoredFilesWithTheName) {
  fixture_.write(0, "gone.desktop", app_body("Gone", "/bin/true", "Hidden=true\n"));
  fixture_.write(1, "gone.desktop", app_body("Gone", "/bin/true"));
  const nlohmann::json out = to_json(explain_match(fixture_.index(), "gone", kX11WithGio));
  EXPECT_EQ(out.at("refusals").at(0).at("reason"), "no_entry");
  ASSERT_EQ(out.at("ignored").size(), 2u);
  EXPECT_EQ(out.at("ignored").at(0).at("kind"), "hidden");
  EXPECT_EQ(out.at("ignored").at(1).at("kind"), "shadowed");
}

}  // namespace
}  // namespace companyos::launch
