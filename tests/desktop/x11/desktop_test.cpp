#include "desktop_test.h"

#include <cstdlib>
#include <string>

namespace companyos::x11::testing {

void DesktopTest::SetUp() {
  auto opened = Connection::open();
  ASSERT_TRUE(opened.ok()) << opened.error().message << " (run under scripts/desktop-session)";
  connection_.emplace(std::move(opened).value());
  std::string pattern = (std::filesystem::temp_directory_path() / "x11-desktop-XXXXXX").string();
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  dir_ = pattern;
}

void DesktopTest::TearDown() {
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
  connection_.reset();
}

}  // namespace companyos::x11::testing
