#include "a11y/selection.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

WindowInfo window(std::string id, std::string title, std::string app) {
  WindowInfo w;
  w.id = std::move(id);
  w.title = std::move(title);
  w.app_name = std::move(app);
  return w;
}

std::vector<AppInfo> desktop() {
  AppInfo editor{"editor", ":1.2", 100, "gtk", "3.24", true, false,
                 {window("w1", "Draft", "editor"), window("w2", "Notes", "editor")}};
  AppInfo viewer{"viewer", ":1.3", 101, "gtk", "3.24", true, false,
                 {window("w3", "Photo", "viewer")}};
  AppInfo twin_title{"twins", ":1.4", 102, "gtk", "3.24", true, false,
                     {window("w4", "Same", "twins"), window("w5", "Same", "twins")}};
  AppInfo keepass{"KeePassXC", ":1.5", 103, "qt", "5", true, true, {}};
  AppInfo hung{"hung", ":1.6", 104, "", "", false, false, {}};
  WindowInfo front = window("w7", "Front", "browser");
  front.states = StateSet{1} << ATSPI_STATE_ACTIVE;
  AppInfo browser{"browser", ":1.7", 105, "chromium", "1", true, false,
                  {window("w6", "Back", "browser"), front, window("w8", "", "browser")}};
  AppInfo helpers{"helpers", ":1.8", 106, "chromium", "1", true, false,
                  {window("w9", "", "helpers"), window("w10", "Page", "helpers"), window("w11", "", "helpers")}};
  AppInfo untitled{"untitled", ":1.9", 107, "gtk", "3.24", true, false,
                   {window("w12", "", "untitled"), window("w13", "", "untitled")}};
  return {editor, viewer, twin_title, keepass, hung, browser, helpers, untitled};
}

TEST(Selection, PicksExactlyOneWindow) {
  struct Case {
    const char* what;
    WindowQuery query;
    std::optional<std::string> window;  // expected id, or nullopt for an error
    ErrorCode code = ErrorCode::kInternal;
  };
  const Case cases[] = {
      {"only window", {"viewer", {}, {}}, "w3"},
      {"case-insensitive app", {"VIEWER", {}, {}}, "w3"},
      {"by id", {"editor", "w2", {}}, "w2"},
      {"by title", {"editor", {}, "Draft"}, "w1"},
      {"several titled windows, none active", {"editor", {}, {}}, std::nullopt, ErrorCode::kAmbiguousTarget},
      {"several windows: the active one", {"browser", {}, {}}, "w7"},
      {"a title picks even against the active one", {"browser", {}, "Back"}, "w6"},
      {"untitled helpers never count", {"helpers", {}, {}}, "w10"},
      {"only untitled windows", {"untitled", {}, {}}, std::nullopt, ErrorCode::kAmbiguousTarget},
      {"same titles", {"twins", {}, "Same"}, std::nullopt, ErrorCode::kAmbiguousTarget},
      {"no such title", {"editor", {}, "draft"}, std::nullopt, ErrorCode::kWindowNotFound},
      {"another app's id", {"editor", "w3", {}}, std::nullopt, ErrorCode::kWindowNotFound},
      {"no such app", {"nothing", {}, {}}, std::nullopt, ErrorCode::kAppNotFound},
      {"password manager", {"keepassxc", {}, {}}, std::nullopt, ErrorCode::kPolicyDenied},
      {"password manager by name only", {"pinentry", {}, {}}, std::nullopt,
       ErrorCode::kPolicyDenied},
      {"unresponsive app", {"hung", {}, {}}, std::nullopt, ErrorCode::kAppUnresponsive},
  };
  const auto apps = desktop();
  for (const Case& c : cases) {
    auto selected = select_apps(apps, c.query.app);
    Result<WindowInfo> picked =
        selected ? select_window(*selected, c.query) : Result<WindowInfo>(selected.error());
    if (c.window) {
      ASSERT_TRUE(picked.ok()) << c.what << ": " << picked.error().message;
      EXPECT_EQ(picked->id, *c.window) << c.what;
    } else {
      ASSERT_FALSE(picked.ok()) << c.what;
      EXPECT_EQ(picked.error().code, c.code) << c.what << ": " << picked.error().message;
    }
  }
}

TEST(Selection, ErrorsListTheCandidates) {
  const auto apps = desktop();
  auto selected = select_apps(apps, "editor");
  ASSERT_TRUE(selected.ok());
  auto several = select_window(*selected, {"editor", {}, {}});
  ASSERT_FALSE(several.ok());
  const auto& candidates = several.error().details["candidates"];
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0]["id"], "w1");
  EXPECT_EQ(candidates[1]["title"], "Notes");
  auto none = select_window(*selected, {"editor", {}, "Missing"});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().details["candidates"].size(), 2u);
  auto no_app = select_apps(apps, "nothing");
  EXPECT_EQ(no_app.error().details["apps"].size(), apps.size());
}

TEST(Selection, AnUnresponsiveTwinDoesNotBlockAWindowPickedById) {
  auto apps = desktop();
  apps.push_back(AppInfo{"editor", ":1.9", 200, "", "", false, false, {}});
  auto selected = select_apps(apps, "editor");
  ASSERT_TRUE(selected.ok());
  EXPECT_EQ(selected->size(), 2u);
  EXPECT_TRUE(select_window(*selected, {"editor", "w1", {}}).ok());
  auto by_title = select_window(*selected, {"editor", {}, "Draft"});
  ASSERT_FALSE(by_title.ok());
  EXPECT_EQ(by_title.error().code, ErrorCode::kAppUnresponsive);
}

}  // namespace
}  // namespace companyos::a11y
