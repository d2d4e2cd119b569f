#include "x11/png_writer.h"

#include <png.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

namespace companyos::x11 {
namespace {

struct LibpngMessage {
  std::array<char, 256> text{};
};

void on_libpng_error(png_structp png, png_const_charp message) noexcept {
  auto* sink = static_cast<LibpngMessage*>(png_get_error_ptr(png));
  std::snprintf(sink->text.data(), sink->text.size(), "%s", message);
  png_longjmp(png, 1);
}

void on_libpng_warning(png_structp /*png*/, png_const_charp /*message*/) noexcept {}

// png_struct and png_info are created and destroyed together.
class PngWriter {
 public:
  explicit PngWriter(LibpngMessage* sink)
      : png_(png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, &on_libpng_error,
                                     &on_libpng_warning)),
        info_(png_ ? png_create_info_struct(png_) : nullptr) {}
  ~PngWriter() { png_destroy_write_struct(&png_, &info_); }
  PngWriter(const PngWriter&) = delete;
  PngWriter& operator=(const PngWriter&) = delete;

  bool valid() const { return png_ != nullptr && info_ != nullptr; }
  png_structp png() const { return png_; }
  png_infop info() const { return info_; }

 private:
  png_structp png_;
  png_infop info_;
};

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// The temporary file is removed unless it was renamed into place.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  ~TemporaryFile() {
    if (!committed_) ::unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }
  void mark_committed() { committed_ = true; }

 private:
  std::string path_;
  bool committed_ = false;
};

// libpng reports errors by longjmp back to the setjmp below. Nothing in this frame, nor in
// the libpng frames the jump skips, has a destructor, which keeps the jump well-defined.
bool encode(png_structp png, png_infop info, std::FILE* file, const RgbImage& image) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  // Speed over size: a window picture is read once, by an agent, right away. zlib level 1
  // with the Sub filter only skips the defaults' level 6 and per-row filter search
  // (get_app_state with the picture at ~300 nodes: 61 -> 52 ms median, scripts/bench mcp).
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width),
               static_cast<png_uint_32>(image.height), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const std::uint8_t* row = image.rgb.data();
  for (int y = 0; y < image.height; ++y, row += image.row_bytes()) png_write_row(png, row);
  png_write_end(png, nullptr);
  return true;
}

Error file_error(int error_number, const std::string& what, const std::filesystem::path& path) {
  const auto code = error_number == EACCES || error_number == EPERM || error_number == EROFS
                        ? ErrorCode::kPermDenied
                    : error_number == ENOENT || error_number == ENOTDIR || error_number == EISDIR ||
                            error_number == ENAMETOOLONG
                        ? ErrorCode::kInvalidArgs
                        : ErrorCode::kInternal;
  return make_error(code, what + " '" + path.string() + "': " + std::strerror(error_number),
                    {{"path", path.string()}, {"errno", error_number}});
}

}  // namespace

Status write_png_atomically(const RgbImage& image, const std::filesystem::path& path) {
  if (!image.consistent()) {
    return make_error(
        ErrorCode::kInvalidArgs, "image buffer does not match its size",
        {{"width", image.width}, {"height", image.height}, {"bytes", image.rgb.size()}});
  }
  if (path.filename().empty()) {
    return make_error(ErrorCode::kInvalidArgs, "'" + path.string() + "' names no file",
                      {{"path", path.string()}});
  }
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string pattern = (directory / ("." + path.filename().string() + ".XXXXXX")).string();
  const int descriptor = ::mkstemp(pattern.data());
  if (descriptor < 0) return file_error(errno, "cannot create a file beside", path);
  TemporaryFile temporary(pattern);
  File file(::fdopen(descriptor, "wb"));
  if (!file) {
    const int error_number = errno;
    ::close(descriptor);
    return file_error(error_number, "cannot open a file beside", path);
  }

  LibpngMessage message;
  {
    PngWriter writer(&message);
    if (!writer.valid()) {
      return make_error(ErrorCode::kInternal, "libpng could not start a PNG writer");
    }
    if (!encode(writer.png(), writer.info(), file.get(), image)) {
      return make_error(ErrorCode::kInternal, std::string("libpng failed: ") + message.text.data(),
                        {{"path", path.string()}});
    }
  }
  if (std::fflush(file.get()) != 0 || ::fsync(::fileno(file.get())) != 0) {
    return file_error(errno, "cannot write", path);
  }
  if (std::fclose(file.release()) != 0) return file_error(errno, "cannot write", path);
  if (::rename(temporary.path().c_str(), path.c_str()) != 0) {
    return file_error(errno, "cannot replace", path);
  }
  temporary.mark_committed();
  return ok_status();
}

}  // namespace companyos::x11
