#include "launch/app_match.h"

#include <gtest/gtest.h>

#include "entry_fixture.h"

namespace companyos::launch {
namespace {

using testing::app_body;
using testing::EntryFixture;

struct EntrySpec {
  int level;
  std::string file;  // relative to the level's applications directory
  std::string name;
  std::string extra;  // more keys, e.g. "StartupWMClass=X\n"
};

struct AppMatchCase {
  std::string_view what;
  std::vector<EntrySpec> entries;
  std::string query;
  std::optional<MatchField> deciding;
  std::string chosen;                   // id, or "" when nothing is chosen
  std::vector<std::string> candidates;  // ids, by level
};

void run(const AppMatchCase& c, const std::string& locale = "C") {
  SCOPED_TRACE(std::string(c.what));
  EntryFixture fixture;
  const std::string program = fixture.program("app");
  for (const EntrySpec& spec : c.entries) {
    fixture.write(spec.level, spec.file, app_body(spec.name, program + " %U", spec.extra));
  }
  const AppMatch match = match_app(fixture.index(locale), c.query);
  EXPECT_EQ(match.query, c.query);
  EXPECT_EQ(match.deciding_field, c.deciding);
  EXPECT_EQ(match.chosen ? match.chosen->entry.id : "", c.chosen);
  std::vector<std::string> ids;
  for (const MatchCandidate& candidate : match.candidates) ids.push_back(candidate.entry.id);
  EXPECT_EQ(ids, c.candidates);
  EXPECT_EQ(match.ambiguous(), c.chosen.empty() && !c.candidates.empty());
}

TEST(MatchApp, EachFieldCanDecide) {
  const AppMatchCase cases[] = {
      {"StartupWMClass",
       {{0, "a.desktop", "Alpha", "StartupWMClass=Firefox\n"}},
       "firefox",
       MatchField::kStartupWmClass,
       "a.desktop",
       {"a.desktop"}},
      {"desktop id with suffix",
       {{0, "org.example.Viewer.desktop", "Viewer", ""}},
       "org.example.Viewer.desktop",
       MatchField::kDesktopId,
       "org.example.Viewer.desktop",
       {"org.example.Viewer.desktop"}},
      {"desktop id without suffix",
       {{0, "org.example.Viewer.desktop", "Viewer", ""}},
       "org.example.viewer",
       MatchField::kDesktopId,
       "org.example.Viewer.desktop",
       {"org.example.Viewer.desktop"}},
      {"subfolder id",
       {{0, "kde/editor.desktop", "Kate", ""}},
       "kde-editor",
       MatchField::kDesktopId,
       "kde-editor.desktop",
       {"kde-editor.desktop"}},
      {"Name",
       {{0, "a.desktop", "Text Editor", ""}},
       "text editor",
       MatchField::kName,
       "a.desktop",
       {"a.desktop"}},
      {"nothing matches",
       {{0, "a.desktop", "Alpha", "StartupWMClass=Alpha\n"}},
       "beta",
       std::nullopt,
       "",
       {}},
      {"empty name matches nothing", {{0, "a.desktop", "Alpha", ""}}, "", std::nullopt, "", {}},
      {"a part of a name is no match",
       {{0, "a.desktop", "Alpha Beta", ""}},
       "alpha",
       std::nullopt,
       "",
       {}},
  };
  for (const AppMatchCase& c : cases) run(c);
}

TEST(MatchApp, IgnoresCase) {
  const AppMatchCase cases[] = {
      {"upper-case query",
       {{0, "mousepad.desktop", "Mousepad", ""}},
       "MOUSEPAD",
       MatchField::kDesktopId,
       "mousepad.desktop",
       {"mousepad.desktop"}},
      {"mixed-case class",
       {{0, "a.desktop", "A", "StartupWMClass=GIMP-2.10\n"}},
       "gimp-2.10",
       MatchField::kStartupWmClass,
       "a.desktop",
       {"a.desktop"}},
      {"non-ASCII name",
       {{0, "a.desktop", "ÉDITEUR", ""}},
       "éditeur",
       MatchField::kName,
       "a.desktop",
       {"a.desktop"}},
      {"case folding beyond lower-casing",
       {{0, "a.desktop", "STRASSE", ""}},
       "straße",
       MatchField::kName,
       "a.desktop",
       {"a.desktop"}},
  };
  for (const AppMatchCase& c : cases) run(c);
}

TEST(MatchApp, TheFirstFieldThatMatchesDecides) {
  const AppMatchCase cases[] = {
      {"class beats id",
       {{0, "viewer.desktop", "Viewer", ""},
        {0, "other.desktop", "Other", "StartupWMClass=viewer\n"}},
       "viewer",
       MatchField::kStartupWmClass,
       "other.desktop",
       {"other.desktop"}},
      {"id beats name",
       {{0, "viewer.desktop", "Something", ""}, {0, "other.desktop", "Viewer", ""}},
       "viewer",
       MatchField::kDesktopId,
       "viewer.desktop",
       {"viewer.desktop"}},
      {"class beats name even on a lower level",
       {{0, "a.desktop", "Viewer", ""}, {2, "b.desktop", "B", "StartupWMClass=Viewer\n"}},
       "viewer",
       MatchField::kStartupWmClass,
       "b.desktop",
       {"b.desktop"}},
  };
  for (const AppMatchCase& c : cases) run(c);
}

TEST(MatchApp, TheHighestLevelWinsAndTiesOnItAreAmbiguous) {
  const AppMatchCase cases[] = {
      {"two levels: the higher wins",
       {{0, "mine.desktop", "Editor", ""}, {1, "system.desktop", "Editor", ""}},
       "editor",
       MatchField::kName,
       "mine.desktop",
       {"mine.desktop", "system.desktop"}},
      {"higher level listed first whatever the ids",
       {{1, "a.desktop", "Editor", ""}, {2, "b.desktop", "Editor", ""}},
       "editor",
       MatchField::kName,
       "a.desktop",
       {"a.desktop", "b.desktop"}},
      {"two on one level: ambiguous",
       {{1, "a.desktop", "Editor", ""}, {1, "b.desktop", "Editor", ""}},
       "editor",
       MatchField::kName,
       "",
       {"a.desktop", "b.desktop"}},
      {"two on the top level, one below: ambiguous",
       {{0, "a.desktop", "Editor", ""},
        {0, "b.desktop", "Editor", ""},
        {1, "c.desktop", "Editor", ""}},
       "editor",
       MatchField::kName,
       "",
       {"a.desktop", "b.desktop", "c.desktop"}},
      {"a tie below the winner is no ambiguity",
       {{0, "a.desktop", "Editor", ""},
        {1, "b.desktop", "Editor", ""},
        {1, "c.desktop", "Editor", ""}},
       "editor",
       MatchField::kName,
       "a.desktop",
       {"a.desktop", "b.desktop", "c.desktop"}},
      {"two classes on one level",
       {{0, "a.desktop", "A", "StartupWMClass=Term\n"},
        {0, "b.desktop", "B", "StartupWMClass=term\n"}},
       "term",
       MatchField::kStartupWmClass,
       "",
       {"a.desktop", "b.desktop"}},
  };
  for (const AppMatchCase& c : cases) run(c);
}

TEST(MatchApp, HiddenIdsMatchNothing) {
  const AppMatchCase cases[] = {
      {"hidden by the user",
       {{0, "viewer.desktop", "Viewer", "Hidden=true\n"}, {1, "viewer.desktop", "Viewer", ""}},
       "viewer",
       std::nullopt,
       "",
       {}},
      {"hidden, but another entry has the name",
       {{0, "viewer.desktop", "Viewer", "Hidden=true\n"}, {1, "other.desktop", "Viewer", ""}},
       "viewer",
       MatchField::kName,
       "other.desktop",
       {"other.desktop"}},
      {"NoDisplay entries still match",
       {{0, "viewer.desktop", "Viewer", "NoDisplay=true\n"}},
       "viewer",
       MatchField::kDesktopId,
       "viewer.desktop",
       {"viewer.desktop"}},
  };
  for (const AppMatchCase& c : cases) run(c);
}

TEST(MatchApp, MatchesTheLocalesNameAndTheUntranslatedOne) {
  const std::vector<EntrySpec> entries = {{0, "a.desktop", "Calculator", "Name[de]=Rechner\n"}};
  run({"translated", entries, "rechner", MatchField::kName, "a.desktop", {"a.desktop"}}, "de");
  run({"untranslated", entries, "calculator", MatchField::kName, "a.desktop", {"a.desktop"}}, "de");
  run({"another locale's name", entries, "rechner", std::nullopt, "", {}}, "fr");
}

TEST(MatchApp, ShowsWhatMatched) {
  EntryFixture fixture;
  fixture.write(0, "a.desktop",
                app_body("Calculator", fixture.program("calc"), "Name[de]=Rechner\n"));
  const AppMatch match = match_app(fixture.index("de"), "RECHNER");
  ASSERT_TRUE(match.chosen);
  EXPECT_EQ(match.chosen->matched_value, "Rechner");
  ASSERT_EQ(match.tried.size(), 3u);
  EXPECT_EQ(match.tried[0].matches, 0u);
  EXPECT_EQ(match.tried[2].field, MatchField::kName);
  EXPECT_EQ(match.tried[2].matches, 1u);
}

TEST(FoldCase, FoldsUnicodeAndToleratesBadBytes) {
  EXPECT_EQ(fold_case("MouSePad"), "mousepad");
  EXPECT_EQ(fold_case("Straße"), fold_case("STRASSE"));
  EXPECT_EQ(fold_case("e\xCC\x81"), fold_case("\xC3\xA9"));  // decomposed é equals composed é
  EXPECT_EQ(fold_case("AB\xFF"), "ab\xFF");
}

TEST(MatchRunningApp, FallsBackToWmClassThenToTheExecutable) {
  struct RunningCase {
    std::string_view what;
    RunningApp app;
    std::optional<MatchField> deciding;
    std::string chosen;
  };
  const RunningCase cases[] = {
      {"the AT-SPI name decides first (here as the desktop id)",
       {"Mousepad", {"other-class"}, "other-program"}, MatchField::kDesktopId, "mousepad.desktop"},
      {"GNOME Calculator: by its executable",
       {"gnome-calculator", {"gnome-calculator", "Gnome-calculator"}, "gnome-calculator"},
       MatchField::kExecutable, "org.gnome.Calculator.desktop"},
      {"Firefox: by its WM_CLASS class",
       {"Firefox", {"Navigator", "firefox-esr"}, "firefox-esr"}, MatchField::kStartupWmClass,
       "firefox-esr.desktop"},
      {"LibreOffice: by its WM_CLASS, not soffice.bin",
       {"soffice", {"libreoffice-writer", "libreoffice-writer"}, "soffice.bin"},
       MatchField::kStartupWmClass, "libreoffice-writer.desktop"},
      {"nothing matches", {"stranger", {"stranger"}, "stranger"}, std::nullopt, ""},
      {"no executable known", {"gnome-calculator", {}, ""}, std::nullopt, ""},
      {"two entries run the same program: ambiguous",
       {"viewer", {}, "shared-viewer"}, MatchField::kExecutable, ""},
  };
  EntryFixture fixture;
  auto entry = [&fixture](const std::string& file, const std::string& name,
                          const std::string& program, const std::string& extra = {}) {
    fixture.write(0, file, app_body(name, fixture.program(program) + " %U", extra));
  };
  entry("mousepad.desktop", "Mousepad", "mousepad");
  entry("org.gnome.Calculator.desktop", "Calculator", "gnome-calculator");
  entry("firefox-esr.desktop", "Firefox ESR", "firefox-esr", "StartupWMClass=firefox-esr\n");
  entry("libreoffice-writer.desktop", "LibreOffice Writer", "libreoffice",
        "StartupWMClass=libreoffice-writer\n");
  entry("a-viewer.desktop", "A Viewer", "shared-viewer");
  entry("b-viewer.desktop", "B Viewer", "shared-viewer");
  const DesktopIndex index = fixture.index();
  for (const RunningCase& c : cases) {
    const AppMatch match = match_running_app(index, c.app);
    EXPECT_EQ(match.deciding_field, c.deciding) << c.what;
    EXPECT_EQ(match.chosen ? match.chosen->entry.id : "", c.chosen) << c.what;
  }
}

}  // namespace
}  // namespace companyos::launch
