#include "core/pipe_reading.h"

#include <unistd.h>

#include <array>
#include <cerrno>

namespace companyos {

PipeRead read_available(UniqueFd& fd, const std::function<bool(std::string_view)>& take) {
  std::array<char, 16 * 1024> buffer{};
  while (fd.valid()) {
    const ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got > 0) {
      if (!take(std::string_view(buffer.data(), static_cast<std::size_t>(got)))) return PipeRead::kHeld;
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return PipeRead::kDrained;
    } else {
      fd.reset();
    }
  }
  return PipeRead::kClosed;
}

}  // namespace companyos
