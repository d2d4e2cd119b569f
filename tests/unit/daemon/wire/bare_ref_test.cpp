#include "daemon/wire/bare_ref.h"

#include <gtest/gtest.h>

#include <vector>

namespace companyos::wire {
namespace {

using nlohmann::json;

std::shared_ptr<const a11y::Snapshot> snapshot(std::string id, std::string app, std::string window,
                                               std::string title) {
  auto made = std::make_shared<a11y::Snapshot>();
  made->id = std::move(id);
  made->app_name = std::move(app);
  made->window.id = std::move(window);
  made->window.title = std::move(title);
  return made;
}

// Oldest first, as the store lists them: two windows of gedit, one of mousepad.
const std::vector<std::shared_ptr<const a11y::Snapshot>> kStored = {
    snapshot("abc1", "gedit", "w1", "Untitled"),  snapshot("abc2", "mousepad", "w9", "Notes"),
    snapshot("abc3", "gedit", "w2", "Report"),    snapshot("abc4", "gedit", "w1", "Untitled"),
    snapshot("abc5", "mousepad", "w9", "Notes"),
};

struct Case {
  std::string name;
  json params;
  std::optional<json> bound;  // nullopt: INVALID_ARGS
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class BareRefs : public ::testing::TestWithParam<Case> {};

TEST_P(BareRefs, BindToTheNewestSnapshotOfOneWindow) {
  const Case& c = GetParam();
  auto bound = bind_bare_ref(c.params, kStored);
  if (!c.bound) {
    ASSERT_FALSE(bound.ok()) << bound->dump();
    EXPECT_EQ(bound.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(bound.error().details["param"], "snapshot");
    EXPECT_NE(bound.error().suggestion.find("--snapshot"), std::string::npos);
    return;
  }
  ASSERT_TRUE(bound.ok()) << bound.error().message;
  EXPECT_EQ(*bound, *c.bound);
}

INSTANTIATE_TEST_SUITE_P(
    Table, BareRefs,
    ::testing::Values(
        Case{"only_window_of_the_app", {{"ref", "e4"}, {"app", "mousepad"}, {"value", "x"}},
             json{{"ref", "e4"}, {"snapshot", "abc5"}, {"value", "x"}}},
        Case{"app_name_case_insensitive", {{"ref", "e4"}, {"app", "MousePad"}},
             json{{"ref", "e4"}, {"snapshot", "abc5"}}},
        Case{"window_picks_newest_of_it", {{"ref", "e2"}, {"app", "gedit"}, {"window", "w1"}},
             json{{"ref", "e2"}, {"snapshot", "abc4"}}},
        Case{"title_picks_the_window", {{"ref", "e2"}, {"app", "gedit"}, {"title", "Report"}},
             json{{"ref", "e2"}, {"snapshot", "abc3"}}},
        Case{"several_windows_refuse", {{"ref", "e2"}, {"app", "gedit"}}, std::nullopt},
        Case{"unknown_app_refuses", {{"ref", "e2"}, {"app", "kate"}}, std::nullopt},
        Case{"unknown_window_refuses", {{"ref", "e2"}, {"app", "gedit"}, {"window", "w7"}}, std::nullopt},
        Case{"title_of_another_app_refuses", {{"ref", "e2"}, {"app", "mousepad"}, {"title", "Report"}},
             std::nullopt},
        // The whole name is compared: "mousepad\0x" is not mousepad.
        Case{"app_name_with_a_nul_refuses",
             {{"ref", "e2"}, {"app", std::string("mousepad\0x", 10)}}, std::nullopt},
        // Left for parse_action_request to judge:
        Case{"full_ref_unchanged", {{"ref", "@abc1:e2"}, {"app", "gedit"}},
             json{{"ref", "@abc1:e2"}, {"app", "gedit"}}},
        Case{"snapshot_given_unchanged", {{"ref", "e2"}, {"snapshot", "abc1"}, {"app", "gedit"}},
             json{{"ref", "e2"}, {"snapshot", "abc1"}, {"app", "gedit"}}},
        Case{"no_app_unchanged", {{"ref", "e2"}}, json{{"ref", "e2"}}},
        Case{"selector_unchanged", {{"app", "gedit"}, {"role", "push button"}, {"name", "Save"}},
             json{{"app", "gedit"}, {"role", "push button"}, {"name", "Save"}}},
        Case{"non_string_ref_unchanged", {{"ref", 4}, {"app", "gedit"}}, json{{"ref", 4}, {"app", "gedit"}}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(BareRefs, NothingStoredRefusesABareRefWithApp) {
  auto bound = bind_bare_ref(json{{"ref", "e1"}, {"app", "gedit"}}, {});
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.error().code, ErrorCode::kInvalidArgs);
}

}  // namespace
}  // namespace companyos::wire
