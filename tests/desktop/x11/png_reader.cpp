#include "png_reader.h"

#include <png.h>

#include <memory>

namespace companyos::x11::testing {
namespace {

struct ImageFreer {
  void operator()(png_image* image) const { png_image_free(image); }
};

}  // namespace

std::optional<RgbImage> read_png(const std::filesystem::path& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  const std::unique_ptr<png_image, ImageFreer> guard(&image);
  if (!png_image_begin_read_from_file(&image, path.c_str())) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  RgbImage decoded{static_cast<int>(image.width), static_cast<int>(image.height), {}};
  decoded.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, decoded.rgb.data(), 0, nullptr)) {
    return std::nullopt;
  }
  return decoded;
}

}  // namespace companyos::x11::testing
