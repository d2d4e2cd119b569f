#include "desktop/window_resolver.h"

#include <gtest/gtest.h>

namespace companyos::desktop {
namespace {

a11y::WindowInfo a11y_window(std::optional<int> pid, std::string title, std::optional<Bounds> bounds) {
  a11y::WindowInfo w;
  w.pid = pid;
  w.title = std::move(title);
  w.bounds = bounds;
  return w;
}

x11::WindowInfo client(x11::WindowId id, std::optional<long> pid, std::string title, Bounds bounds) {
  x11::WindowInfo c;
  c.id = id;
  c.pid = pid;
  c.title = std::move(title);
  c.bounds = bounds;
  return c;
}

struct WindowResolverCase {
  std::string name;
  a11y::WindowInfo window;
  std::vector<x11::WindowInfo> clients;
  std::optional<x11::WindowId> expected;
  friend void PrintTo(const WindowResolverCase& c, std::ostream* os) { *os << c.name; }
};

class WindowMatch : public ::testing::TestWithParam<WindowResolverCase> {};

TEST_P(WindowMatch, PairsOnlyWhenUnambiguous) {
  const auto& c = GetParam();
  const x11::WindowInfo* paired = match_x11_window(c.window, c.clients);
  EXPECT_EQ(paired ? std::optional<x11::WindowId>(paired->id) : std::nullopt, c.expected);
}

const Bounds kB{10, 20, 300, 200};
const Bounds kR{10, 20, 300, 200};

INSTANTIATE_TEST_SUITE_P(
    Table, WindowMatch,
    ::testing::Values(
        WindowResolverCase{"one_by_pid_and_title", a11y_window(7, "Doc", kB), {client(1, 7, "Doc", kR), client(2, 8, "Doc", kR)}, 1},
        WindowResolverCase{"no_pid_no_guess", a11y_window(std::nullopt, "Doc", kB), {client(1, 7, "Doc", kR)}, std::nullopt},
        WindowResolverCase{"client_without_pid", a11y_window(7, "Doc", kB), {client(1, std::nullopt, "Doc", kR)}, std::nullopt},
        WindowResolverCase{"title_differs_and_size_differs", a11y_window(7, "Doc", kB),
             {client(1, 7, "Other", {0, 0, 640, 480})}, std::nullopt},
        WindowResolverCase{"retitled_window_paired_by_its_geometry", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc (edited)", kR), client(2, 7, "Palette", {0, 0, 640, 480})}, 1},
        WindowResolverCase{"retitled_same_size_position_decides", a11y_window(7, "Doc", kB),
             {client(1, 7, "A", {0, 0, 300, 200}), client(2, 7, "B", kR)}, 2},
        WindowResolverCase{"retitled_identical_geometry_refused", a11y_window(7, "Doc", kB),
             {client(1, 7, "A", kR), client(2, 7, "B", kR)}, std::nullopt},
        WindowResolverCase{"retitled_without_bounds_refused", a11y_window(7, "Doc", std::nullopt),
             {client(1, 7, "A", kR)}, std::nullopt},
        WindowResolverCase{"same_title_size_decides", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc", {0, 0, 100, 100}), client(2, 7, "Doc", {50, 50, 300, 200})}, 2},
        WindowResolverCase{"same_title_same_size_position_decides", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc", {0, 0, 300, 200}), client(2, 7, "Doc", kR)}, 2},
        WindowResolverCase{"identical_twins_refused", a11y_window(7, "Doc", kB),
             {client(1, 7, "Doc", kR), client(2, 7, "Doc", kR)}, std::nullopt},
        WindowResolverCase{"twins_without_bounds_refused", a11y_window(7, "Doc", std::nullopt),
             {client(1, 7, "Doc", kR), client(2, 7, "Doc", {0, 0, 1, 1})}, std::nullopt},
        WindowResolverCase{"gtk4_relative_position_still_matches_by_size", a11y_window(7, "Calc", Bounds{0, 0, 300, 200}),
             {client(1, 7, "Calc", kR), client(2, 7, "Calc", {5, 5, 640, 480})}, 1},
        WindowResolverCase{"no_clients", a11y_window(7, "Doc", kB), {}, std::nullopt}),
    [](const ::testing::TestParamInfo<WindowResolverCase>& info) { return info.param.name; });

x11::WindowInfo classed(x11::WindowId id, std::optional<long> pid, std::string title, std::string wm_class) {
  x11::WindowInfo c = client(id, pid, std::move(title), kR);
  c.wm_instance = wm_class;
  c.wm_class = wm_class;
  return c;
}

a11y::AppInfo app(std::string name, int pid, std::vector<std::string> titles) {
  a11y::AppInfo info;
  info.name = std::move(name);
  info.bus_name = ":1." + std::to_string(pid);
  info.pid = pid;
  int n = 0;
  for (auto& title : titles) {
    a11y::WindowInfo w = a11y_window(pid, std::move(title), kB);
    w.id = "w" + std::to_string(++n);
    w.app_name = info.name;
    info.windows.push_back(std::move(w));
  }
  return info;
}

struct ChoiceCase {
  std::string name;
  Result<std::vector<a11y::AppInfo>> apps;
  std::vector<x11::WindowInfo> clients;
  a11y::WindowQuery query;
  Fallback fallback;
  // The client chosen and whether it came with its accessible window, or the error code.
  std::optional<x11::WindowId> client;
  bool accessible = false;
  ErrorCode error = ErrorCode::kInternal;
  friend void PrintTo(const ChoiceCase& c, std::ostream* os) { *os << c.name; }
};

class WindowChoice : public ::testing::TestWithParam<ChoiceCase> {};

TEST_P(WindowChoice, OneAnswerForMethodsAndSteps) {
  const auto& c = GetParam();
  auto chosen = choose_window(c.apps, c.clients, c.query, c.fallback);
  if (c.client) {
    ASSERT_TRUE(chosen) << chosen.error().message;
    EXPECT_EQ(chosen->client.id, *c.client);
    EXPECT_EQ(chosen->accessible.has_value(), c.accessible);
  } else {
    ASSERT_FALSE(chosen);
    EXPECT_EQ(chosen.error().code, c.error);
  }
}

using Apps = std::vector<a11y::AppInfo>;
const Error kNoBus = make_error(ErrorCode::kBusUnavailable, "no bus");

INSTANTIATE_TEST_SUITE_P(
    Table, WindowChoice,
    ::testing::Values(
        ChoiceCase{"accessible_window_paired", Apps{app("gedit", 7, {"Doc"})},
                   {classed(1, 7, "Doc", "gedit")}, {"gedit", {}, {}}, Fallback::kNone, 1, true},
        // A second X11 window of the same class that the bus does not list (a helper
        // window): the accessible window decides, for methods and steps alike.
        ChoiceCase{"inaccessible_twin_ignored_by_method", Apps{app("gedit", 7, {"Doc"})},
                   {classed(1, 7, "Doc", "gedit"), classed(2, 7, "helper", "gedit")}, {"gedit", {}, {}},
                   Fallback::kNone, 1, true},
        ChoiceCase{"inaccessible_twin_ignored_by_step", Apps{app("gedit", 7, {"Doc"})},
                   {classed(1, 7, "Doc", "gedit"), classed(2, 7, "helper", "gedit")}, {"gedit", {}, {}},
                   Fallback::kWmClass, 1, true},
        ChoiceCase{"two_accessible_windows_refused", Apps{app("gedit", 7, {"A", "B"})},
                   {classed(1, 7, "A", "gedit"), classed(2, 7, "B", "gedit")}, {"gedit", {}, {}},
                   Fallback::kWmClass, std::nullopt, false, ErrorCode::kAmbiguousTarget},
        ChoiceCase{"title_picks_one", Apps{app("gedit", 7, {"A", "B"})},
                   {classed(1, 7, "A", "gedit"), classed(2, 7, "B", "gedit")}, {"gedit", {}, "B"},
                   Fallback::kNone, 2, true},
        ChoiceCase{"accessible_but_unpaired_never_by_class", Apps{app("gedit", 7, {"Doc"})},
                   {classed(1, std::nullopt, "Doc", "gedit")}, {"gedit", {}, {}}, Fallback::kWmClass,
                   std::nullopt, false, ErrorCode::kWindowNotFound},
        ChoiceCase{"not_on_bus_method_refuses", Apps{app("gedit", 7, {"Doc"})},
                   {classed(3, 9, "~", "xterm")}, {"xterm", {}, {}}, Fallback::kNone, std::nullopt, false,
                   ErrorCode::kAppNotFound},
        ChoiceCase{"not_on_bus_step_by_class", Apps{app("gedit", 7, {"Doc"})},
                   {classed(1, 7, "Doc", "gedit"), classed(3, 9, "~", "XTerm")}, {"xterm", {}, {}},
                   Fallback::kWmClass, 3, false},
        ChoiceCase{"not_on_bus_two_by_class_refused", Apps{},
                   {classed(3, 9, "~", "xterm"), classed(4, 10, "~", "xterm")}, {"xterm", {}, {}},
                   Fallback::kWmClass, std::nullopt, false, ErrorCode::kAmbiguousTarget},
        ChoiceCase{"not_on_bus_no_class_match", Apps{}, {classed(3, 9, "~", "xterm")}, {"mousepad", {}, {}},
                   Fallback::kWmClass, std::nullopt, false, ErrorCode::kAppNotFound},
        ChoiceCase{"named_window_never_by_class", Apps{}, {classed(3, 9, "~", "xterm")}, {"xterm", {}, "~"},
                   Fallback::kWmClass, std::nullopt, false, ErrorCode::kAppNotFound},
        ChoiceCase{"no_bus_step_by_class", kNoBus, {classed(3, 9, "~", "xterm")}, {"xterm", {}, {}},
                   Fallback::kWmClass, 3, false},
        ChoiceCase{"no_bus_method_refuses", kNoBus, {classed(3, 9, "~", "xterm")}, {"xterm", {}, {}},
                   Fallback::kNone, std::nullopt, false, ErrorCode::kBusUnavailable},
        ChoiceCase{"password_manager_denied", Apps{}, {classed(3, 9, "x", "keepassxc")}, {"keepassxc", {}, {}},
                   Fallback::kWmClass, std::nullopt, false, ErrorCode::kPolicyDenied}),
    [](const ::testing::TestParamInfo<ChoiceCase>& info) { return info.param.name; });

}  // namespace
}  // namespace companyos::desktop
