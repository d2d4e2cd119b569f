#include "launch/desktop_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

#include "entry_fixture.h"

namespace companyos::launch {
namespace {

namespace fs = std::filesystem;
using testing::app_body;
using testing::EntryFixture;

std::vector<std::string> ids_of(const DesktopIndex& index) {
  std::vector<std::string> ids;
  for (const DesktopEntry& entry : index.entries()) ids.push_back(entry.id);
  return ids;
}

const IgnoredFile* ignored_file(const DesktopIndex& index, const fs::path& file) {
  for (const IgnoredFile& ignored : index.ignored()) {
    if (ignored.file == file) return &ignored;
  }
  return nullptr;
}

TEST(ApplicationDirs, FollowTheBaseDirectorySpecification) {
  using Env = std::map<std::string, std::string>;
  struct Case {
    std::string_view name;
    Env env;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"defaults",
       {{"HOME", "/home/u"}},
       {"/home/u/.local/share/applications", "/usr/local/share/applications",
        "/usr/share/applications"}},
      {"data home set",
       {{"HOME", "/home/u"}, {"XDG_DATA_HOME", "/data"}},
       {"/data/applications", "/usr/local/share/applications", "/usr/share/applications"}},
      {"data dirs set, user first",
       {{"XDG_DATA_HOME", "/data"}, {"XDG_DATA_DIRS", "/a:/b/"}},
       {"/data/applications", "/a/applications", "/b/applications"}},
      {"empty data dirs means the default",
       {{"XDG_DATA_HOME", "/data"}, {"XDG_DATA_DIRS", ""}},
       {"/data/applications", "/usr/local/share/applications", "/usr/share/applications"}},
      {"relative and empty parts ignored",
       {{"XDG_DATA_HOME", "relative"}, {"HOME", "/home/u"}, {"XDG_DATA_DIRS", "rel::/a"}},
       {"/home/u/.local/share/applications", "/a/applications"}},
      {"repeats dropped",
       {{"XDG_DATA_HOME", "/a"}, {"XDG_DATA_DIRS", "/a:/b:/a/:/b"}},
       {"/a/applications", "/b/applications"}},
      {"no home at all", {{"XDG_DATA_DIRS", "/a"}}, {"/a/applications"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    const EnvLookup env = [&c](const std::string& name) -> std::optional<std::string> {
      auto found = c.env.find(name);
      if (found == c.env.end()) return std::nullopt;
      return found->second;
    };
    std::vector<std::string> dirs;
    for (const fs::path& dir : application_dirs(env)) dirs.push_back(dir.string());
    EXPECT_EQ(dirs, c.expected);
  }
}

TEST(DesktopIndex, ReadsTheKeysLaunchDecisionsNeed) {
  EntryFixture fixture;
  const std::string viewer = fixture.program("viewer");
  fixture.write(0, "org.example.Viewer.desktop",
                app_body("Viewer", viewer + R"( --title "A\sB" %U)",
                         "Name[de]=Betrachter\nStartupWMClass=ViewerWin\n"
                         "MimeType=image/png;x-scheme-handler/HTTPS;x-scheme-handler/ftp;\n"
                         "Categories=Graphics;Viewer;\nTerminal=false\nNoDisplay=true\n"));
  const DesktopIndex index = fixture.index("de");
  const DesktopEntry* entry = index.find("org.example.Viewer.desktop");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->file, fixture.dir(0) / "org.example.Viewer.desktop");
  EXPECT_EQ(entry->level, 0);
  EXPECT_EQ(entry->name, "Viewer");
  EXPECT_EQ(entry->localized_name, "Betrachter");
  EXPECT_EQ(entry->startup_wm_class, "ViewerWin");
  EXPECT_EQ(entry->exec, viewer + R"( --title "A B" %U)");  // \s undone by the key file
  EXPECT_EQ(entry->mime_types, (std::vector<std::string>{"image/png", "x-scheme-handler/HTTPS",
                                                         "x-scheme-handler/ftp"}));
  EXPECT_EQ(entry->handled_schemes(), (std::vector<std::string>{"https", "ftp"}));
  EXPECT_EQ(entry->categories, (std::vector<std::string>{"Graphics", "Viewer"}));
  EXPECT_FALSE(entry->terminal);
  EXPECT_TRUE(entry->no_display);  // NoDisplay entries still count
  EXPECT_EQ(entry->id_stem(), "org.example.Viewer");
}

TEST(DesktopIndex, UsesTheUntranslatedNameWhenTheLocaleHasNone) {
  EntryFixture fixture;
  fixture.write(0, "a.desktop", app_body("Alpha", fixture.program("a"), "Name[fr]=Alpha FR\n"));
  EXPECT_EQ(fixture.index("de").find("a.desktop")->localized_name, "Alpha");
  EXPECT_EQ(fixture.index("fr").find("a.desktop")->localized_name, "Alpha FR");
}

TEST(DesktopIndex, GivesSubfolderEntriesDashedIds) {
  EntryFixture fixture;
  const std::string program = fixture.program("app");
  fixture.write(0, "kde/editor.desktop", app_body("Editor", program));
  fixture.write(0, "vendor/deep/tool.desktop", app_body("Tool", program));
  fixture.write(1, "top.desktop", app_body("Top", program));
  fixture.write(1, "notes.txt", "not an entry");
  fixture.write(1, "README", "not an entry");
  EXPECT_EQ(
      ids_of(fixture.index()),
      (std::vector<std::string>{"kde-editor.desktop", "vendor-deep-tool.desktop", "top.desktop"}));
}

TEST(DesktopIndex, LetsTheHigherLevelClaimAnId) {
  struct Case {
    std::string_view name;
    std::string level0_body;  // empty: no file at level 0
    std::string level1_body;
    bool entry_expected;
    int entry_level;
    std::string level0_kind;  // kind of level 0's file in ignored(), "" when it is the entry
    std::string level1_kind;
  };
  EntryFixture programs;
  const std::string app = programs.program("app");
  const std::string usable = app_body("App", app);
  const Case cases[] = {
      {"user entry hides the system one", usable, usable, true, 0, "", "shadowed"},
      {"only the system entry", "", usable, true, 1, "", ""},
      {"Hidden=true hides the id everywhere", usable + "Hidden=true\n", usable, false, 0, "hidden",
       "shadowed"},
      {"Hidden=true alone", "", usable + "Hidden=true\n", false, 0, "", "hidden"},
      {"an unusable file still claims its id", app_body("App", "/no/such/program"), usable, false,
       0, "unusable", "shadowed"},
      {"TryExec missing", usable + "TryExec=/no/such/program\n", usable, false, 0, "unusable",
       "shadowed"},
      {"not an application", "Type=Link\nName=App\nURL=https://example.org\n", usable, false, 0,
       "unusable", "shadowed"},
      {"NoDisplay still counts", usable + "NoDisplay=true\n", usable, true, 0, "", "shadowed"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    EntryFixture fixture;
    fs::path level0;
    if (!c.level0_body.empty()) level0 = fixture.write(0, "app.desktop", c.level0_body);
    const fs::path level1 = fixture.write(1, "app.desktop", c.level1_body);
    const DesktopIndex index = fixture.index();
    const DesktopEntry* entry = index.find("app.desktop");
    ASSERT_EQ(entry != nullptr, c.entry_expected);
    if (entry) {
      EXPECT_EQ(entry->level, c.entry_level);
    }
    if (!c.level0_kind.empty()) {
      ASSERT_NE(ignored_file(index, level0), nullptr);
      EXPECT_EQ(ignored_file(index, level0)->kind, c.level0_kind);
    }
    const IgnoredFile* level1_ignored = ignored_file(index, level1);
    if (c.level1_kind.empty()) {
      EXPECT_EQ(level1_ignored, nullptr);
    } else {
      ASSERT_NE(level1_ignored, nullptr);
      EXPECT_EQ(level1_ignored->kind, c.level1_kind);
    }
  }
}

TEST(DesktopIndex, SetsAsideFilesItCannotUse) {
  EntryFixture fixture;
  const auto no_group = fixture.dir(0) / "no-group.desktop";
  std::ofstream(no_group) << "[Something Else]\nName=X\n";
  const auto broken = fixture.dir(0) / "broken.desktop";
  std::ofstream(broken) << "this is not a key file\n[Desktop Entry\n";
  const DesktopIndex index = fixture.index();
  EXPECT_TRUE(index.entries().empty());
  ASSERT_NE(ignored_file(index, no_group), nullptr);
  EXPECT_NE(ignored_file(index, no_group)->why.find("no [Desktop Entry] group"), std::string::npos);
  ASSERT_NE(ignored_file(index, broken), nullptr);
  EXPECT_EQ(ignored_file(index, broken)->kind, "unusable");
}

// Paths compare component by component, so "kde/…" sorts before "kde-…".
TEST(DesktopIndex, ResolvesTwoFilesWithOneIdOnOneLevelTheSameWayEachTime) {
  EntryFixture fixture;
  const std::string app = fixture.program("app");
  fixture.write(0, "kde-editor.desktop", app_body("Flat", app));
  fixture.write(0, "kde/editor.desktop", app_body("Nested", app));
  for (int load = 0; load < 3; ++load) {
    const DesktopIndex index = fixture.index();
    ASSERT_EQ(index.entries().size(), 1u);
    EXPECT_EQ(index.entries().front().name, "Nested");
    EXPECT_EQ(index.ignored().size(), 1u);
  }
}

TEST(DesktopIndex, TreatsMissingDirectoriesAsEmpty) {
  IndexOptions options;
  options.dirs = {"/no/such/dir/applications"};
  const DesktopIndex index = DesktopIndex::load(options);
  EXPECT_TRUE(index.entries().empty());
  EXPECT_EQ(index.dirs(), options.dirs);
}

// The index is read afresh on every lookup; this measures that against a large desktop.
TEST(DesktopIndex, LoadsThreeHundredEntriesFastEnoughToReadPerLookup) {
  EntryFixture fixture(2);
  const std::string app = fixture.program("app");
  for (int i = 0; i < 300; ++i) {
    fixture.write(i % 2, "org.example.App" + std::to_string(i) + ".desktop",
                  app_body("App " + std::to_string(i), app + " %U",
                           "Name[de]=Anwendung " + std::to_string(i) +
                               "\nMimeType=text/plain;x-scheme-handler/https;\n"
                               "Categories=Utility;\nStartupWMClass=App" +
                               std::to_string(i) + "\n"));
  }
  std::vector<double> millis;
  for (int run = 0; run < 7; ++run) {
    const auto started = std::chrono::steady_clock::now();
    const DesktopIndex index = fixture.index("de");
    millis.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count());
    ASSERT_EQ(index.entries().size(), 300u);
  }
  std::sort(millis.begin(), millis.end());
  std::cout << "loading 300 entries: median " << millis[3] << " ms, max " << millis.back()
            << " ms\n";
  EXPECT_LT(millis[3], 500.0);
}

}  // namespace
}  // namespace companyos::launch
