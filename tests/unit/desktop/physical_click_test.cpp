#include "desktop/physical_click.h"

#include <gtest/gtest.h>

namespace companyos::desktop {
namespace {

struct PhysicalClickCase {
  std::string name;
  Bounds element;
  bool window_relative;
  Bounds client;
  std::optional<ScreenPoint> point;
  friend void PrintTo(const PhysicalClickCase& c, std::ostream* os) { *os << c.name; }
};

class ClickPoints : public ::testing::TestWithParam<PhysicalClickCase> {};

TEST_P(ClickPoints, AreTheCentreOnScreenInsideTheWindow) {
  const PhysicalClickCase& c = GetParam();
  EXPECT_EQ(click_point(c.element, c.window_relative, c.client), c.point);
}

const Bounds kWindow{100, 50, 400, 300};  // client area in root coordinates

INSTANTIATE_TEST_SUITE_P(
    Table, ClickPoints,
    ::testing::Values(
        PhysicalClickCase{"screen_bounds", {120, 60, 80, 30}, false, kWindow, ScreenPoint{160, 75}},
        PhysicalClickCase{"odd_size_rounds_down", {120, 60, 81, 31}, false, kWindow, ScreenPoint{160, 75}},
        PhysicalClickCase{"window_relative_is_translated", {20, 10, 80, 30}, true, kWindow, ScreenPoint{160, 75}},
        PhysicalClickCase{"one_pixel", {100, 50, 1, 1}, false, kWindow, ScreenPoint{100, 50}},
        PhysicalClickCase{"empty_width", {120, 60, 0, 30}, false, kWindow, std::nullopt},
        PhysicalClickCase{"negative_height", {120, 60, 10, -4}, false, kWindow, std::nullopt},
        PhysicalClickCase{"centre_left_of_window", {40, 60, 80, 30}, false, kWindow, std::nullopt},
        PhysicalClickCase{"centre_below_window", {120, 340, 80, 30}, false, kWindow, std::nullopt},
        PhysicalClickCase{"right_edge_is_outside", {480, 60, 40, 30}, false, kWindow, std::nullopt},
        // Window-relative bounds taken for screen ones would land outside: not guessed.
        PhysicalClickCase{"relative_not_translated_lands_outside", {20, 10, 80, 30}, false, kWindow, std::nullopt},
        PhysicalClickCase{"relative_past_the_window", {390, 10, 40, 30}, true, kWindow, std::nullopt}),
    [](const ::testing::TestParamInfo<PhysicalClickCase>& info) { return info.param.name; });

}  // namespace
}  // namespace companyos::desktop
