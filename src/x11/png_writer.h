// Writing an RgbImage as a PNG file, atomically: readers of `path` see the old file or
// the whole new one, never a part.
#pragma once

#include <filesystem>

#include "companyos/result.h"
#include "x11/image.h"

namespace companyos::x11 {

// Encodes `image` (8-bit RGB) into a temporary file beside `path`, syncs it and renames it
// over `path`; the file is private to the user (0600). INVALID_ARGS for an inconsistent
// image or an unusable path, PERM_DENIED when the directory is not writable.
Status write_png_atomically(const RgbImage& image, const std::filesystem::path& path);

}  // namespace companyos::x11
