#include "core/daemon_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

#include "companyos/protocol.h"

namespace companyos {
namespace {

CallOutcome failed(CallFailure kind, std::string detail) {
  return CallOutcome{kind, std::move(detail), nullptr};
}

}  // namespace

CallOutcome DaemonClient::call(std::string_view method, const nlohmann::json& params,
                               std::chrono::milliseconds timeout, int cancel_fd,
                               const std::function<void()>& each_second) {
  if (!fd_.valid()) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socket_path_.empty() || socket_path_.size() >= sizeof(addr.sun_path)) {
      return failed(CallFailure::kUnreachable, "socket path is empty or too long");
    }
    std::memcpy(addr.sun_path, socket_path_.c_str(), socket_path_.size() + 1);
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) return failed(CallFailure::kUnreachable, std::strerror(errno));
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
      return failed(CallFailure::kUnreachable, std::strerror(errno));
    }
    fd_ = std::move(fd);
  }

  const long id = next_id_++;
  const std::string line = protocol::to_line(protocol::make_request(id, method, params, origin_));
  for (std::size_t sent = 0; sent < line.size();) {
    ssize_t n = ::send(fd_.get(), line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return failed(CallFailure::kUnreachable, std::string("send: ") + std::strerror(errno));
    sent += static_cast<std::size_t>(n);
  }

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string buffer;
  char chunk[64 * 1024];
  for (;;) {
    auto newline = buffer.find('\n');
    if (newline != std::string::npos) {
      auto reply = nlohmann::json::parse(buffer.substr(0, newline), nullptr, false);
      if (reply.is_discarded() || !reply.is_object()) {
        return failed(CallFailure::kBrokenReply, "the daemon sent a reply that is not JSON");
      }
      // A reply without our id is a refusal sent before any request was read.
      return CallOutcome{CallFailure::kNone, {}, std::move(reply)};
    }
    if (buffer.size() > protocol::kMaxLineBytes * 4) {
      return failed(CallFailure::kBrokenReply, "reply too long");
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return failed(CallFailure::kTimeout, "no reply within " + std::to_string(timeout.count()) + " ms");
    }
    pollfd pfds[2] = {{fd_.get(), POLLIN, 0}, {cancel_fd, POLLIN, 0}};
    const auto slice = each_second ? std::min<long long>(left.count(), 1000) : left.count();
    int ready = ::poll(pfds, cancel_fd >= 0 ? 2 : 1, static_cast<int>(slice));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (each_second) each_second();
      continue;
    }
    if (cancel_fd >= 0 && (pfds[1].revents & POLLIN) != 0) {
      fd_.reset();  // the daemon sees the connection close and ends the work behind it
      return failed(CallFailure::kCancelled, "cancelled by the caller");
    }
    ssize_t n = ::recv(fd_.get(), chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return failed(CallFailure::kBrokenReply, "the daemon closed the connection without replying");
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace companyos
