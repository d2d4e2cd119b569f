#include "web/http/page_files.h"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.h"

namespace companyos::web {
namespace {

void write(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(ContentType, KnowsPageFilesOnly) {
  EXPECT_EQ(content_type_for("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for("app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for("style.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_for("logo.svg"), "image/svg+xml");
  EXPECT_EQ(content_type_for("shot.png"), "image/png");
  EXPECT_EQ(content_type_for("notes.txt"), "");
  EXPECT_EQ(content_type_for("Makefile"), "");
  EXPECT_EQ(content_type_for("app.js.map"), "");
}

TEST(PageFiles, ServesTheFolderFilesByExactName) {
  testing::TempDir dir;
  write(dir.path() / "index.html", "<!doctype html>");
  write(dir.path() / "app.js", "export {}");
  auto pages = PageFiles::load(dir.path());
  ASSERT_TRUE(pages.ok()) << pages.error().message;
  EXPECT_EQ(pages->size(), 2U);
  ASSERT_NE(pages->find("/"), nullptr);
  EXPECT_EQ(pages->find("/")->bytes, "<!doctype html>");
  EXPECT_EQ(pages->find("/index.html")->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(pages->find("/app.js")->bytes, "export {}");
  for (const char* path : {"/APP.JS", "/app.js/", "//app.js", "/../app.js", "app.js", "/missing.js", ""}) {
    EXPECT_EQ(pages->find(path), nullptr) << path;
  }
}

TEST(PageFiles, RefusesAFolderThatIsNotOurs) {
  {
    testing::TempDir dir;
    write(dir.path() / "app.js", "");
    auto pages = PageFiles::load(dir.path());
    ASSERT_FALSE(pages.ok());
    EXPECT_NE(pages.error().message.find("no index.html"), std::string::npos);
  }
  {
    testing::TempDir dir;
    write(dir.path() / "index.html", "");
    write(dir.path() / "secret.txt", "");
    auto pages = PageFiles::load(dir.path());
    ASSERT_FALSE(pages.ok());
    EXPECT_NE(pages.error().message.find("not a page file"), std::string::npos);
  }
  {
    testing::TempDir dir;
    write(dir.path() / "index.html", "");
    std::filesystem::create_directory(dir.path() / "sub");
    EXPECT_FALSE(PageFiles::load(dir.path()).ok());
  }
  {
    testing::TempDir dir;
    write(dir.path() / "index.html", std::string(1024 * 1024 + 1, 'x'));
    EXPECT_FALSE(PageFiles::load(dir.path()).ok());
  }
  EXPECT_FALSE(PageFiles::load("/no/such/folder").ok());
}

}  // namespace
}  // namespace companyos::web
