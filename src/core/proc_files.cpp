#include "core/proc_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <memory>
#include <string_view>

#include "core/unique_fd.h"

namespace companyos {
namespace {

struct CloseDirectory {
  void operator()(DIR* directory) const noexcept { ::closedir(directory); }
};

}  // namespace

std::optional<std::string> read_small_file(const std::filesystem::path& path, std::size_t limit) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  return read_to_end(fd.get(), limit);
}

std::optional<std::string> read_to_end(int fd, std::size_t limit) {
  std::string bytes;
  std::array<char, 4096> buffer{};
  while (bytes.size() < limit) {
    const ssize_t got = ::read(fd, buffer.data(), std::min(buffer.size(), limit - bytes.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::nullopt;
    if (got == 0) break;
    bytes.append(buffer.data(), static_cast<std::size_t>(got));
  }
  return bytes;
}

std::optional<pid_t> parse_pid(std::string_view text) {
  pid_t pid = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || pid <= 0) return std::nullopt;
  return pid;
}

std::vector<pid_t> listed_pids() {
  std::vector<pid_t> pids;
  const std::unique_ptr<DIR, CloseDirectory> directory(::opendir("/proc"));
  if (!directory) return pids;
  while (const dirent* entry = ::readdir(directory.get())) {
    if (const auto pid = parse_pid(entry->d_name)) pids.push_back(*pid);
  }
  return pids;
}

}  // namespace companyos
