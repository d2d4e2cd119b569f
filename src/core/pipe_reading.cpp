#include "core/pipe_reading.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <vector>

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

void wait_for_descriptors(std::initializer_list<int> readable, std::initializer_list<int> writable,
                          std::chrono::milliseconds limit) {
  std::vector<pollfd> watched;
  for (int fd : readable) {
    if (fd >= 0) watched.push_back({fd, POLLIN, 0});
  }
  for (int fd : writable) {
    if (fd >= 0) watched.push_back({fd, POLLOUT, 0});
  }
  const auto wait = std::clamp<std::chrono::milliseconds::rep>(limit.count(), 0, INT_MAX);
  ::poll(watched.data(), watched.size(), static_cast<int>(wait));
}

}  // namespace companyos
