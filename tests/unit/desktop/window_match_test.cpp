#include "desktop/window_match.h"

#include <gtest/gtest.h>

namespace companyos::desktop {
namespace {

a11y::WindowInfo a11y_window(std::optional<int> pid, std::string title, std::optional<a11y::Bounds> bounds) {
  a11y::WindowInfo w;
  w.pid = pid;
  w.title = std::move(title);
  w.bounds = bounds;
  return w;
}

x11::WindowInfo client(x11::WindowId id, std::optional<long> pid, std::string title, x11::Rect bounds) {
  x11::WindowInfo c;
  c.id = id;
  c.pid = pid;
  c.title = std::move(title);
  c.bounds = bounds;
  return c;
}

struct Case {
  std::string name;
  a11y::WindowInfo window;
  std::vector<x11::WindowInfo> clients;
  std::optional<x11::WindowId> expected;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class WindowMatch : public ::testing::TestWithParam<Case> {};

TEST_P(WindowMatch, PairsOnlyWhenUnambiguous) {
  const auto& c = GetParam();
  EXPECT_EQ(match_x11_window(c.window, c.clients), c.expected);
}

const a11y::Bounds kB{10, 20, 300, 200};
const x11::Rect kR{10, 20, 300, 200};

INSTANTIATE_TEST_SUITE_P(
    Table, WindowMatch,
    ::testing::Values(
        Case{"one_by_pid_and_title", a11y_window(7, "Doc", kB), {client(1, 7, "Doc", kR), client(2, 8, "Doc", kR)}, 1},
        Case{"no_pid_no_guess", a11y_window(std::nullopt, "Doc", kB), {client(1, 7, "Doc", kR)}, std::nullopt},
        Case{"client_without_pid", a11y_window(7, "Doc", kB), {client(1, std::nullopt, "Doc", kR)}, std::nullopt},
        Case{"title_differs", a11y_window(7, "Doc", kB), {client(1, 7, "Other", kR)}, std::nullopt},
        Case{"same_title_size_decides", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc", {0, 0, 100, 100}), client(2, 7, "Doc", {50, 50, 300, 200})}, 2},
        Case{"same_title_same_size_position_decides", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc", {0, 0, 300, 200}), client(2, 7, "Doc", kR)}, 2},
        Case{"identical_twins_refused", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc", kR), client(2, 7, "Doc", kR)}, std::nullopt},
        Case{"twins_without_bounds_refused", a11y_window(7, "Doc", std::nullopt),
             {client(1, 7, "Doc", kR), client(2, 7, "Doc", {0, 0, 1, 1})}, std::nullopt},
        Case{"gtk4_relative_position_still_matches_by_size", a11y_window(7, "Calc", a11y::Bounds{0, 0, 300, 200}),
             {client(1, 7, "Calc", kR), client(2, 7, "Calc", {5, 5, 640, 480})}, 1},
        Case{"no_clients", a11y_window(7, "Doc", kB), {}, std::nullopt}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace companyos::desktop
