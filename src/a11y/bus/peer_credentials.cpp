#include "a11y/bus/peer_credentials.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace companyos::a11y {

PeerIdentity own_user_peer(std::optional<pid_t> pid) { return PeerIdentity{::getuid(), pid}; }

bool peer_is(int fd, const PeerIdentity& expected, std::string* why) {
  ucred credentials{};
  socklen_t size = sizeof credentials;
  if (fd < 0) {
    if (why != nullptr) *why = "the connection has no socket";
    return false;
  }
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0 || size != sizeof credentials) {
    if (why != nullptr) *why = std::string("the peer's credentials cannot be read: ") + std::strerror(errno);
    return false;
  }
  if (credentials.uid != expected.uid) {
    if (why != nullptr) *why = "the peer runs as uid " + std::to_string(credentials.uid);
    return false;
  }
  if (expected.pid && credentials.pid != *expected.pid) {
    if (why != nullptr) {
      *why = "the peer is process " + std::to_string(credentials.pid) + ", not the app's " +
             std::to_string(*expected.pid);
    }
    return false;
  }
  return true;
}

}  // namespace companyos::a11y
