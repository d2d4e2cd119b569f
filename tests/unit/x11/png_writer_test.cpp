#include "x11/png_writer.h"

#include <gtest/gtest.h>
#include <png.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace companyos::x11 {
namespace {

namespace fs = std::filesystem;

class PngWriterTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "x11-png-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
};

// A gradient with distinct values per pixel and channel, so swapped channels, rows or a
// stride error show up.
RgbImage synthetic_image(int width, int height) {
  RgbImage image{width, height, {}};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image.rgb.push_back(static_cast<std::uint8_t>(x * 7 + y));
      image.rgb.push_back(static_cast<std::uint8_t>(y * 13 + 1));
      image.rgb.push_back(static_cast<std::uint8_t>((x ^ y) + 200));
    }
  }
  return image;
}

struct ImageFreer {
  void operator()(png_image* image) const { png_image_free(image); }
};

// Reads a PNG back with libpng's simplified API as 8-bit RGB.
std::optional<RgbImage> read_png(const fs::path& path) {
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

TEST_F(PngWriterTest, WritesPixelsThatReadBackExactly) {
  struct Case {
    int width;
    int height;
  };
  const Case cases[] = {{1, 1}, {3, 2}, {64, 48}, {333, 17}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height));
    const RgbImage original = synthetic_image(c.width, c.height);
    const fs::path path = dir_ / "shot.png";
    ASSERT_TRUE(write_png_atomically(original, path).ok());
    const auto decoded = read_png(path);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(decoded->width, c.width);
    EXPECT_EQ(decoded->height, c.height);
    EXPECT_EQ(decoded->rgb, original.rgb);
  }
}

TEST_F(PngWriterTest, ReplacesAnExistingFileAndLeavesNoTemporaries) {
  const fs::path path = dir_ / "shot.png";
  std::ofstream(path) << "old contents";
  ASSERT_TRUE(write_png_atomically(synthetic_image(4, 4), path).ok());
  EXPECT_TRUE(read_png(path).has_value());
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
}

TEST_F(PngWriterTest, RefusesBadImagesAndPathsWithoutLeavingFiles) {
  struct Case {
    std::string_view name;
    RgbImage image;
    fs::path path;
    ErrorCode expected;
  };
  RgbImage short_buffer = synthetic_image(4, 4);
  short_buffer.rgb.pop_back();
  const Case cases[] = {
      {"zero width", RgbImage{0, 4, {}}, dir_ / "a.png", ErrorCode::kInvalidArgs},
      {"negative height", RgbImage{4, -1, {}}, dir_ / "a.png", ErrorCode::kInvalidArgs},
      {"short buffer", short_buffer, dir_ / "a.png", ErrorCode::kInvalidArgs},
      {"missing directory", synthetic_image(2, 2), dir_ / "no" / "a.png", ErrorCode::kInvalidArgs},
      {"no file name", synthetic_image(2, 2), dir_ / "", ErrorCode::kInvalidArgs},
      {"path is a directory", synthetic_image(2, 2), dir_ / "sub", ErrorCode::kInvalidArgs},
  };
  fs::create_directory(dir_ / "sub");
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    auto written = write_png_atomically(c.image, c.path);
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().code, c.expected) << written.error().message;
  }
  // Only the directory made above remains: failed writes cleaned up their temporaries.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

// The write's error code, as `uid` gets it: 0 for a write that succeeded.
int write_as(uid_t uid, const fs::path& path) {
  const auto code = [&path] {
    auto written = write_png_atomically(synthetic_image(2, 2), path);
    return written.ok() ? 0 : static_cast<int>(written.error().code) + 1;
  };
  if (::geteuid() == uid) return code();
  // Root writes anywhere: a child that gave root up tries it (CI runs as root).
  const pid_t child = ::fork();
  if (child == 0) {
    if (::setgid(uid) != 0 || ::setuid(uid) != 0) ::_exit(255);
    ::_exit(code());
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 254;
}

TEST_F(PngWriterTest, ReportsAnUnwritableDirectory) {
  // Root's own tests write as nobody (65534), whom only the locked directory stops.
  const uid_t writer = ::geteuid() == 0 ? 65534 : ::geteuid();
  fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
  fs::create_directory(dir_ / "locked");
  fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                       fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  EXPECT_EQ(write_as(writer, dir_ / "locked" / "a.png"), static_cast<int>(ErrorCode::kPermDenied) + 1);
  EXPECT_FALSE(fs::exists(dir_ / "locked" / "a.png"));
  fs::permissions(dir_ / "locked", fs::perms::owner_all);
  fs::create_directory(dir_ / "open");
  fs::permissions(dir_ / "open", fs::perms::all);
  EXPECT_EQ(write_as(writer, dir_ / "open" / "a.png"), 0) << "the same writer writes where it may";
}

}  // namespace
}  // namespace companyos::x11
