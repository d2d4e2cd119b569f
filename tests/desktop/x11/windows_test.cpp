// The session probe and the client list, checked against the fixtures' own pids.
#include "x11/windows.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "desktop_test.h"
#include "fixture_app.h"
#include "wait_until.h"
#include "x11/capabilities.h"
#include "x11/display_server.h"
#include "x11/xlib.h"

namespace companyos::x11::testing {
namespace {

class Windows : public DesktopTest {};

TEST_F(Windows, SessionIsX11WithXTestAndAnEwmhWindowManager) {
  EXPECT_EQ(detect_display_server(), DisplayServer::kX11);
  auto capabilities = probe_capabilities(connection());
  ASSERT_TRUE(capabilities.ok()) << capabilities.error().message;
  EXPECT_TRUE(capabilities->xtest);
  EXPECT_TRUE(capabilities->ewmh_window_manager);
  EXPECT_EQ(capabilities->window_manager_name, "Openbox");
}

TEST_F(Windows, ClientListHasBothFixturesWithPidClassAndTitle) {
  FixtureApp alpha({"Alpha window", "CompanyosAlpha", {}});
  FixtureApp beta({"Beta window", "CompanyosBeta", {}});
  ASSERT_GT(alpha.pid(), 0) << "cannot start " << fixture_binary();
  ASSERT_GT(beta.pid(), 0);
  ASSERT_TRUE(alpha.wait_for_window(connection()).has_value());
  ASSERT_TRUE(beta.wait_for_window(connection()).has_value());

  auto windows = list_windows(connection());
  ASSERT_TRUE(windows.ok()) << windows.error().message;
  struct Expected {
    const FixtureApp& app;
    std::string_view title;
    std::string_view wm_class;
  };
  for (const Expected& expected : {Expected{alpha, "Alpha window", "CompanyosAlpha"},
                                   Expected{beta, "Beta window", "CompanyosBeta"}}) {
    SCOPED_TRACE(std::string(expected.title));
    // GTK's unmapped leader window shares the pid and WM_CLASS; it must not be listed.
    ASSERT_EQ(
        std::ranges::count_if(
            *windows, [&](const WindowInfo& window) { return window.pid == expected.app.pid(); }),
        1);
    const WindowInfo& window = *std::ranges::find_if(
        *windows, [&](const WindowInfo& w) { return w.pid == expected.app.pid(); });
    EXPECT_EQ(window.title, expected.title);
    EXPECT_EQ(window.wm_class, expected.wm_class);
    EXPECT_EQ(window.wm_instance, expected.wm_class);
    EXPECT_FALSE(window.bounds.empty());
    EXPECT_TRUE(window.frame.contains(window.bounds));

    auto described = describe_window(connection(), window.id);
    ASSERT_TRUE(described.ok());
    EXPECT_EQ(described->bounds, window.bounds);
  }
}

// Writes root's _NET_CLIENT_LIST as the test needs it, and puts back an empty one (what
// openbox publishes with no client) whatever happens.
class RootClientList {
 public:
  explicit RootClientList(Connection& connection)
      : connection_(connection), property_(connection.atom("_NET_CLIENT_LIST")) {}
  ~RootClientList() { set({}); }
  RootClientList(const RootClientList&) = delete;
  RootClientList& operator=(const RootClientList&) = delete;

  void set(const std::vector<unsigned long>& ids) {
    XChangeProperty(connection_.display(), connection_.root(), property_, XA_WINDOW, 32,
                    PropModeReplace, reinterpret_cast<const unsigned char*>(ids.data()),
                    static_cast<int>(ids.size()));
    XSync(connection_.display(), False);
  }
  void remove() {
    XDeleteProperty(connection_.display(), connection_.root(), property_);
    XSync(connection_.display(), False);
  }

 private:
  Connection& connection_;
  Atom property_;
};

// A window manager with no client publishes an empty _NET_CLIENT_LIST: that is an empty
// list, not a missing window manager. Only an absent property means none keeps a list.
TEST_F(Windows, EmptyClientListIsEmptyAndOnlyAnAbsentOneIsMissing) {
  ASSERT_TRUE(wait_until([&] {
    auto windows = list_windows(connection());
    return windows.ok() && windows->empty();
  })) << "openbox with no client should publish an empty client list";

  RootClientList list(connection());
  const WindowId not_a_client = 0x7FFFFFF;
  struct Case {
    const char* state;
    bool present;
    std::optional<ErrorCode> listing_error;
    ErrorCode lookup_error;
  };
  const Case cases[] = {
      {"empty", true, std::nullopt, ErrorCode::kWindowNotFound},
      {"absent", false, ErrorCode::kPlatformNotSupported, ErrorCode::kPlatformNotSupported},
      {"empty again", true, std::nullopt, ErrorCode::kWindowNotFound},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.state);
    if (c.present) {
      list.set({});
    } else {
      list.remove();
    }
    auto windows = list_windows(connection());
    if (c.listing_error) {
      ASSERT_FALSE(windows.ok());
      EXPECT_EQ(windows.error().code, *c.listing_error);
    } else {
      ASSERT_TRUE(windows.ok()) << windows.error().message;
      EXPECT_TRUE(windows->empty());
    }
    auto described = describe_window(connection(), not_a_client);
    ASSERT_FALSE(described.ok());
    EXPECT_EQ(described.error().code, c.lookup_error);
    auto required = require_client(connection(), not_a_client);
    ASSERT_FALSE(required.ok());
    EXPECT_EQ(required.error().code, c.lookup_error);
  }
}

TEST_F(Windows, UnknownWindowIsNotFound) {
  auto described = describe_window(connection(), connection().root());
  ASSERT_FALSE(described.ok());
  EXPECT_EQ(described.error().code, ErrorCode::kWindowNotFound);
  auto bogus = describe_window(connection(), 0x7FFFFFF);
  ASSERT_FALSE(bogus.ok());
  EXPECT_EQ(bogus.error().code, ErrorCode::kWindowNotFound);
}

}  // namespace
}  // namespace companyos::x11::testing
