#include "x11/capture.h"

#include <memory>

#include "x11/error_trap.h"
#include "x11/pixel_format.h"
#include "x11/png_writer.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

struct ImageDestroyer {
  void operator()(XImage* image) const { XDestroyImage(image); }
};

nlohmann::json to_json(const Bounds& rect) {
  return {{"x", rect.x}, {"y", rect.y}, {"width", rect.width}, {"height", rect.height}};
}

Result<PixelLayout> root_pixel_layout(Connection& connection, const XImage& image) {
  const Visual* visual = DefaultVisual(connection.display(), connection.screen());
  // DirectColor pixels are colormap indices, not intensities: only TrueColor reads directly.
  if (visual->c_class != TrueColor) {
    return make_error(ErrorCode::kPlatformNotSupported, "screen capture needs a TrueColor screen",
                      {{"visual_class", visual->c_class}});
  }
  // XGetImage fills in the masks when Xlib knows the drawable's visual; if it did not, the
  // root window's visual is the screen's default one.
  const bool image_has_masks = image.red_mask != 0 && image.green_mask != 0;
  auto layout = image_has_masks
                    ? pixel_layout(image.red_mask, image.green_mask, image.blue_mask)
                    : pixel_layout(visual->red_mask, visual->green_mask, visual->blue_mask);
  if (!layout) {
    return make_error(ErrorCode::kPlatformNotSupported, "unusual colour masks on this screen",
                      {{"depth", image.depth}});
  }
  return *layout;
}

}  // namespace

Result<RgbImage> capture_area(Connection& connection, const Bounds& area) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  const Bounds screen{0, 0, connection.screen_width(), connection.screen_height()};
  if (area.empty() || !screen.contains(area)) {
    return make_error(ErrorCode::kInvalidArgs, "the area is empty or not wholly on screen",
                      {{"area", to_json(area)}, {"screen", to_json(screen)}});
  }
  ErrorTrap trap(connection.display());
  const std::unique_ptr<XImage, ImageDestroyer> image(XGetImage(
      connection.display(), connection.root(), area.x, area.y, static_cast<unsigned>(area.width),
      static_cast<unsigned>(area.height), AllPlanes, ZPixmap));
  if (!image || trap.first_error()) {
    return make_error(
        ErrorCode::kInternal, "the X server returned no image",
        {{"area", to_json(area)}, {"x_error", trap.first_error() ? trap.first_error()->text : ""}});
  }
  auto layout = root_pixel_layout(connection, *image);
  if (!layout) return std::move(layout).take_error();

  RgbImage captured;
  captured.width = area.width;
  captured.height = area.height;
  captured.rgb.resize(captured.row_bytes() * static_cast<std::size_t>(area.height));
  auto out = captured.rgb.begin();
  for (int y = 0; y < area.height; ++y) {
    for (int x = 0; x < area.width; ++x) {
      // XGetPixel handles the image's depth, byte order and padding for us.
      const unsigned long pixel = XGetPixel(image.get(), x, y);
      *out++ = channel_value(pixel, layout->red);
      *out++ = channel_value(pixel, layout->green);
      *out++ = channel_value(pixel, layout->blue);
    }
  }
  return captured;
}

Result<Bounds> capture_window_png(Connection& connection, WindowId id,
                                const std::filesystem::path& path) {
  auto window = describe_window(connection, id);
  if (!window) return std::move(window).take_error();
  const Bounds bounds = window->bounds;
  const Bounds screen{0, 0, connection.screen_width(), connection.screen_height()};
  if (!screen.contains(bounds)) {
    return make_error(ErrorCode::kActionNotSupported,
                      "part of window " + std::to_string(id) + " lies off screen",
                      {{"window", id}, {"bounds", to_json(bounds)}, {"screen", to_json(screen)}},
                      "move the window fully onto the screen first");
  }
  auto image = capture_area(connection, bounds);
  if (!image) return std::move(image).take_error();
  if (auto written = write_png_atomically(*image, path); !written) {
    return std::move(written).take_error();
  }
  return bounds;
}

}  // namespace companyos::x11
