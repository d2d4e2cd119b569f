// Reads a PNG file back as 8-bit RGB with libpng, to check what the capture wrote.
#pragma once

#include <filesystem>
#include <optional>

#include "x11/image.h"

namespace companyos::x11::testing {

std::optional<RgbImage> read_png(const std::filesystem::path& path);

}  // namespace companyos::x11::testing
