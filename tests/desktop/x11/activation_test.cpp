// Activation and closing through the window manager, checked with xprop and waitpid.
#include "x11/activation.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <iostream>

#include "desktop_test.h"
#include "fixture_app.h"
#include "oracles.h"
#include "x11/windows.h"

namespace companyos::x11::testing {
namespace {

using std::chrono::milliseconds;

class Activation : public DesktopTest {};

constexpr milliseconds kActivationTimeout{5000};

TEST_F(Activation, ActivatesOneFixtureThenTheOther) {
  FixtureApp alpha({"Alpha window", "CompanyosAlpha", {}});
  FixtureApp beta({"Beta window", "CompanyosBeta", {}});
  auto alpha_window = alpha.wait_for_window(connection());
  auto beta_window = beta.wait_for_window(connection());
  ASSERT_TRUE(alpha_window && beta_window);

  // Start with whichever is not active yet, so that every step changes the active window.
  auto initially = active_window(connection());
  ASSERT_TRUE(initially.ok());
  const WindowInfo& first = *initially == alpha_window->id ? *beta_window : *alpha_window;
  const WindowInfo& second = &first == &*alpha_window ? *beta_window : *alpha_window;
  for (const WindowInfo* target : {&first, &second, &first}) {
    SCOPED_TRACE(target->title);
    const auto started = std::chrono::steady_clock::now();
    auto activated = activate_window(connection(), target->id, kActivationTimeout);
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_TRUE(activated.ok()) << activated.error().message;
    std::cout << "activation of '" << target->title << "' took "
              << std::chrono::duration_cast<milliseconds>(took).count() << " ms\n";

    EXPECT_EQ(xprop_active_window(), target->id);
    auto active = describe_active_window(connection());
    ASSERT_TRUE(active.ok() && active->has_value());
    EXPECT_EQ((*active)->wm_class, target->wm_class);
    EXPECT_TRUE((*active)->active);
  }
}

TEST_F(Activation, RefusesWindowsThatAreNotClients) {
  auto activated = activate_window(connection(), connection().root(), milliseconds(200));
  ASSERT_FALSE(activated.ok());
  EXPECT_EQ(activated.error().code, ErrorCode::kWindowNotFound);
  auto closed = close_window(connection(), 0x7FFFFFF);
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error().code, ErrorCode::kWindowNotFound);
}

TEST_F(Activation, CloseEndsTheFixture) {
  FixtureApp alpha({"Closing window", "CompanyosClose", {}});
  auto window = alpha.wait_for_window(connection());
  ASSERT_TRUE(window.has_value());
  ASSERT_TRUE(close_window(connection(), window->id).ok());
  const auto status = alpha.process().wait_for_exit(milliseconds(20'000));
  ASSERT_TRUE(status.has_value()) << "the fixture did not exit after _NET_CLOSE_WINDOW";
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
}

}  // namespace
}  // namespace companyos::x11::testing
