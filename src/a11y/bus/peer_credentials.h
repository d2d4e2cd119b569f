// Who is at the other end of a connection. An address an app hands us says where to
// connect, not who listens there: before a reply on a peer-to-peer connection is trusted,
// the socket's peer (SO_PEERCRED) must be our own user and the very process that owns the
// app's bus name; the accessibility bus itself must be run by our own user.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace companyos::a11y {

struct PeerIdentity {
  uid_t uid = 0;
  std::optional<pid_t> pid;  // nullopt: any process of that user (a message bus)
};

// The identity every connection must have: our own uid, and pid when it is known.
PeerIdentity own_user_peer(std::optional<pid_t> pid = std::nullopt);

// Whether the connected unix socket fd's peer is `expected`; false when it cannot be told
// (not a unix socket, not connected). why, when given, says what differed.
bool peer_is(int fd, const PeerIdentity& expected, std::string* why = nullptr);

}  // namespace companyos::a11y
