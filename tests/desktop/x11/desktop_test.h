// Base of the x11 desktop tests: one connection to the session's X server (from $DISPLAY,
// set by scripts/desktop-session) and a private directory for files.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "x11/connection.h"

namespace companyos::x11::testing {

class DesktopTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  Connection& connection() { return *connection_; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::optional<Connection> connection_;
  std::filesystem::path dir_;
};

}  // namespace companyos::x11::testing
