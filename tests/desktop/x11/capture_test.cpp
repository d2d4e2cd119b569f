// Capturing the active window: the PNG's size must be the window's bounds as xwininfo
// reports them, and its pixels the window's, not the black root behind it.
#include "x11/capture.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "desktop_test.h"
#include "fixture_app.h"
#include "oracles.h"
#include "png_reader.h"
#include "wait_until.h"
#include "x11/activation.h"

namespace companyos::x11::testing {
namespace {

class Capture : public DesktopTest {};

// Share of pixels that are light grey or white, as a GTK3 (Adwaita) window mostly is.
double light_share(const RgbImage& image) {
  std::size_t light = 0;
  for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3) {
    if (image.rgb[i] > 200 && image.rgb[i + 1] > 200 && image.rgb[i + 2] > 200) ++light;
  }
  return static_cast<double>(light) / static_cast<double>(image.rgb.size() / 3);
}

TEST_F(Capture, ActiveWindowPngHasTheWindowsSizeAndPixels) {
  FixtureApp alpha({"Capture window", "CompanyosCapture", {}});
  FixtureApp beta({"Other window", "CompanyosOther", {}});
  auto window = alpha.wait_for_window(connection());
  ASSERT_TRUE(window.has_value());
  ASSERT_TRUE(beta.wait_for_window(connection()).has_value());
  ASSERT_TRUE(activate_window(connection(), window->id, std::chrono::seconds(5)).ok());
  // A window is mapped before GTK has painted it; until then the capture is black.
  ASSERT_TRUE(wait_until([&] {
    auto pixels = capture_area(connection(), window->bounds);
    return pixels.ok() && light_share(*pixels) > 0.5;
  })) << "the fixture window never showed its light background";

  const auto path = dir() / "window.png";
  const auto started = std::chrono::steady_clock::now();
  auto captured = capture_window_png(connection(), window->id, path);
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(captured.ok()) << captured.error().message;
  std::cout << "capture of " << captured->width << "x" << captured->height << " took "
            << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms\n";

  const auto outside = xwininfo_bounds(window->id);
  ASSERT_TRUE(outside.has_value());
  EXPECT_EQ(*captured, *outside);

  const auto png = read_png(path);
  ASSERT_TRUE(png.has_value());
  EXPECT_EQ(png->width, outside->width);
  EXPECT_EQ(png->height, outside->height);
  EXPECT_GT(light_share(*png), 0.5);
}

TEST_F(Capture, RefusesBadTargetsAndLeavesNoFile) {
  FixtureApp alpha({"Capture window", "CompanyosCapture", {}});
  auto window = alpha.wait_for_window(connection());
  ASSERT_TRUE(window.has_value());

  auto into_missing_dir = capture_window_png(connection(), window->id, dir() / "no" / "a.png");
  ASSERT_FALSE(into_missing_dir.ok());
  EXPECT_EQ(into_missing_dir.error().code, ErrorCode::kInvalidArgs);

  auto not_a_client = capture_window_png(connection(), connection().root(), dir() / "a.png");
  ASSERT_FALSE(not_a_client.ok());
  EXPECT_EQ(not_a_client.error().code, ErrorCode::kWindowNotFound);
  EXPECT_TRUE(std::filesystem::is_empty(dir()));

  auto off_screen = capture_area(connection(), Bounds{-5, 0, 10, 10});
  ASSERT_FALSE(off_screen.ok());
  EXPECT_EQ(off_screen.error().code, ErrorCode::kInvalidArgs);
}

}  // namespace
}  // namespace companyos::x11::testing
