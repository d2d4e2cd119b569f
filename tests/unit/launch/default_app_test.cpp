// GIO's default app for a link's scheme, on a private desktop: each test of this binary runs
// in a process of its own (gtest_discover_tests), so the XDG directories it sets are the
// ones GIO reads first.
#include "launch/default_app.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "temp_dir.h"

namespace companyos::launch {
namespace {

namespace fs = std::filesystem;

class DefaultApp : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* dir : {"data/applications", "config", "system-data", "system-config"}) {
      fs::create_directories(home_.path() / dir);
    }
    setenv("XDG_DATA_HOME", (home_.path() / "data").c_str(), 1);
    setenv("XDG_DATA_DIRS", (home_.path() / "system-data").c_str(), 1);
    setenv("XDG_CONFIG_HOME", (home_.path() / "config").c_str(), 1);
    setenv("XDG_CONFIG_DIRS", (home_.path() / "system-config").c_str(), 1);
  }

  void entry(const std::string& id, const std::string& scheme) {
    std::ofstream(home_.path() / "data/applications" / id)
        << "[Desktop Entry]\nType=Application\nName=" << id << "\nExec=/bin/true %u\nMimeType=x-scheme-handler/"
        << scheme << ";\n";
  }

  void default_for(const std::string& scheme, const std::string& id) {
    std::ofstream(home_.path() / "config/mimeapps.list")
        << "[Default Applications]\nx-scheme-handler/" << scheme << "=" << id << "\n";
  }

  // What update-desktop-database writes (Debian's desktop-file-utils trigger runs it when a
  // package installs an entry): GIO associates entries with types through it.
  void indexed(const std::string& scheme, const std::string& id) {
    std::ofstream(home_.path() / "data/applications/mimeinfo.cache")
        << "[MIME Cache]\nx-scheme-handler/" << scheme << "=" << id << ";\n";
  }

  testing::TempDir home_;
};

std::string reason_of(const Result<std::string>& app) {
  return app ? "ok " + *app : app.error().details.value("reason", std::string());
}

TEST_F(DefaultApp, ThePersonsChoiceAmongTheAppsForTheScheme) {
  entry("a-viewer.desktop", "cos-test");
  entry("b-viewer.desktop", "cos-test");
  default_for("cos-test", "b-viewer.desktop");
  EXPECT_EQ(reason_of(default_app_for_link("cos-test://host/page")), "ok b-viewer.desktop");
}

TEST_F(DefaultApp, TheIndexedAppForTheSchemeWithoutAChoice) {
  entry("viewer.desktop", "cos-test");
  indexed("cos-test", "viewer.desktop");
  EXPECT_EQ(reason_of(default_app_for_link("cos-test:page")), "ok viewer.desktop");
}

TEST_F(DefaultApp, RefusedWhenNothingOpensTheLink) {
  entry("viewer.desktop", "cos-test");
  indexed("cos-test", "viewer.desktop");
  const struct {
    const char* url;
    const char* reason;
  } cases[] = {
      {"cos-other://host/", "no_default_app"},
      {"https://example.org/", "no_default_app"},  // no browser on this private desktop
      {"no scheme here", "cannot_take_target"},
      {"", "cannot_take_target"},
      {"://host", "cannot_take_target"},
      {"1http://host", "cannot_take_target"},  // a scheme starts with a letter
  };
  for (const auto& c : cases) {
    const auto app = default_app_for_link(c.url);
    EXPECT_EQ(reason_of(app), c.reason) << c.url;
    if (!app) {
      EXPECT_EQ(app.error().details.value("delivery", std::string()), "not_delivered") << c.url;
    }
  }
  const auto refused = default_app_for_link("cos-other://host/");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kAppNotFound);
  EXPECT_EQ(refused.error().details.value("scheme", std::string()), "cos-other");
}

}  // namespace
}  // namespace companyos::launch
