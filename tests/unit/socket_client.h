// Blocking test client for the daemon's JSON-lines socket, with deadlines.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/unique_fd.h"

namespace companyos::testing {

inline UniqueFd connect_unix(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) return UniqueFd();
  return fd;
}

// A socket bound to path (not listening yet), or an invalid fd. type_flags: SOCK_NONBLOCK…
inline UniqueFd bind_unix(const std::string& path, int type_flags = 0) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | type_flags, 0));
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) return UniqueFd();
  return fd;
}

// Polls until a connection succeeds or the deadline passes.
inline bool wait_until_serving(const std::string& path, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (connect_unix(path).valid()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class LineClient {
 public:
  explicit LineClient(UniqueFd fd) : fd_(std::move(fd)) {}
  bool valid() const { return fd_.valid(); }
  int fd() const { return fd_.get(); }

  bool send_raw(const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      ssize_t n = ::send(fd_.get(), bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }
  bool send_json(const nlohmann::json& request) { return send_raw(request.dump() + "\n"); }

  // The next reply line, or nullopt on EOF/timeout.
  std::optional<nlohmann::json> read_reply(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        auto line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return nlohmann::json::parse(line, nullptr, false);
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd pfd{fd_.get(), POLLIN, 0};
      if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[65536];
      ssize_t n = ::recv(fd_.get(), chunk, sizeof chunk, 0);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  std::optional<nlohmann::json> call(const nlohmann::json& request) {
    if (!send_json(request)) return std::nullopt;
    return read_reply();
  }

 private:
  UniqueFd fd_;
  std::string buffer_;
};

}  // namespace companyos::testing
