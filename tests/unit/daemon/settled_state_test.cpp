#include "daemon/methods/settled_state.h"

#include <gtest/gtest.h>

#include <atspi/atspi.h>

namespace companyos::daemon::methods {
namespace {

a11y::WindowInfo window(const char* id, bool active) {
  a11y::WindowInfo info;
  info.id = id;
  if (active) info.states = a11y::StateSet{1} << ATSPI_STATE_ACTIVE;
  return info;
}

TEST(SettledState, TheStateFollowsAWindowTheActionOpenedInFront) {
  struct Case {
    const char* what;
    std::vector<a11y::WindowInfo> now;
    std::vector<std::string> before;
    std::optional<std::string> acted_on;
    std::optional<std::string> expected;
  };
  const Case cases[] = {
      {"a dialog opened in front", {window("doc", false), window("dialog", true)}, {"doc"}, "doc", "dialog"},
      {"the window acted on is still in front", {window("doc", true)}, {"doc"}, "doc", std::nullopt},
      {"a new window, but not in front", {window("doc", true), window("tip", false)}, {"doc"}, "doc", std::nullopt},
      {"another old window in front: not the action's doing", {window("doc", false), window("other", true)},
       {"doc", "other"}, "doc", std::nullopt},
      {"no listing from before: nothing is called new", {window("doc", false), window("dialog", true)}, {},
       "doc", std::nullopt},
      {"acted on no known window", {window("a", false), window("dialog", true)}, {"a"}, std::nullopt, "dialog"},
      {"the app lists nothing", {}, {"doc"}, "doc", std::nullopt},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(window_opened_in_front(c.now, c.before, c.acted_on), c.expected) << c.what;
  }
}

}  // namespace
}  // namespace companyos::daemon::methods
