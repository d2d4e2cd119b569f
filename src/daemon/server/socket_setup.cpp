#include "daemon/server/socket_setup.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <systemd/sd-daemon.h>

namespace companyos::daemon {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

Result<sockaddr_un> unix_address(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    return make_error(ErrorCode::kInvalidArgs,
                      "socket path must be 1 to " + std::to_string(sizeof(addr.sun_path) - 1) +
                          " bytes: " + path);
  }
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

Status ensure_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) return ok_status();
  if (errno == EEXIST) return ok_status();
  return make_error(ErrorCode::kInternal, "cannot create socket directory " + dir + ": " +
                                              errno_text(errno));
}

// Connect succeeds: a daemon is serving. ECONNREFUSED: nobody listens, the file is stale.
enum class Probe { kLive, kStale, kAbsent };

Result<Probe> probe_existing(const std::string& path, const sockaddr_un& addr) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Probe::kAbsent;
    return make_error(ErrorCode::kInternal, "cannot inspect " + path + ": " + errno_text(errno));
  }
  if (!S_ISSOCK(st.st_mode)) {
    return make_error(ErrorCode::kConflict, path + " exists and is not a socket; not replacing it",
                      {{"path", path}}, "remove it or choose another path with --socket");
  }
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return make_error(ErrorCode::kInternal, "socket(): " + errno_text(errno));
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) {
    return Probe::kLive;
  }
  if (errno == ECONNREFUSED) return Probe::kStale;
  return make_error(ErrorCode::kInternal,
                    "cannot probe existing socket " + path + ": " + errno_text(errno));
}

}  // namespace

Status check_private_directory(const std::string& dir, uid_t uid) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) {
    return make_error(ErrorCode::kInternal, "cannot inspect " + dir + ": " + errno_text(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    return make_error(ErrorCode::kPermDenied, dir + " is not a directory", {{"path", dir}});
  }
  if (st.st_uid != uid) {
    return make_error(ErrorCode::kPermDenied,
                      "socket directory " + dir + " is owned by uid " + std::to_string(st.st_uid) +
                          ", not " + std::to_string(uid) + "; refusing to serve from it",
                      {{"path", dir}, {"owner", st.st_uid}},
                      "use a directory of your own with --socket");
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return make_error(ErrorCode::kPermDenied,
                      "socket directory " + dir + " has mode " + mode +
                          "; it must not be accessible to group or others",
                      {{"path", dir}, {"mode", mode}}, "chmod 0700 " + dir);
  }
  return ok_status();
}

Result<Listener> listen_on_path(const std::string& path) {
  auto addr = unix_address(path);
  if (!addr) return std::move(addr).take_error();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  if (!dir.empty()) {
    if (auto st = ensure_directory(dir); !st) return std::move(st).take_error();
    if (auto st = check_private_directory(dir, ::geteuid()); !st) return std::move(st).take_error();
  }

  auto probe = probe_existing(path, *addr);
  if (!probe) return std::move(probe).take_error();
  if (*probe == Probe::kLive) {
    return make_error(ErrorCode::kConflict,
                      "another companyosd is already serving " + path, {{"path", path}},
                      "stop it first, or start this one with --socket OTHER_PATH");
  }
  if (*probe == Probe::kStale && ::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return make_error(ErrorCode::kInternal,
                      "cannot remove stale socket " + path + ": " + errno_text(errno));
  }

  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) return make_error(ErrorCode::kInternal, "socket(): " + errno_text(errno));
  // The umask makes the socket 0600 from birth; chmod afterwards would leave a window.
  mode_t old_mask = ::umask(0177);
  int rc = ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&*addr), sizeof(*addr));
  int bind_errno = errno;
  ::umask(old_mask);
  if (rc != 0) {
    return make_error(ErrorCode::kInternal, "cannot bind " + path + ": " + errno_text(bind_errno));
  }
  if (::listen(fd.get(), 64) != 0) {
    ::unlink(path.c_str());
    return make_error(ErrorCode::kInternal, "cannot listen on " + path + ": " + errno_text(errno));
  }
  return Listener{std::move(fd), path, true};
}

Result<std::optional<Listener>> listener_from_systemd() {
  int count = sd_listen_fds(1);
  if (count < 0) {
    return make_error(ErrorCode::kInternal, "sd_listen_fds: " + errno_text(-count));
  }
  if (count == 0) return std::optional<Listener>{};
  if (count > 1) {
    return make_error(ErrorCode::kInvalidArgs,
                      "systemd passed " + std::to_string(count) + " sockets; expected one");
  }
  int fd = SD_LISTEN_FDS_START;
  if (sd_is_socket_unix(fd, SOCK_STREAM, 1, nullptr, 0) <= 0) {
    return make_error(ErrorCode::kInvalidArgs,
                      "the socket systemd passed is not a listening AF_UNIX stream socket");
  }
  int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  sockaddr_un addr{};
  socklen_t len = sizeof(addr);
  std::string path;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0 && addr.sun_path[0] != 0) {
    path = addr.sun_path;
  }
  return std::optional<Listener>(Listener{UniqueFd(fd), path, false});
}

}  // namespace companyos::daemon
