#include "a11y/bus/peer_credentials.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace companyos::a11y {
namespace {

TEST(PeerIs, ComparesTheSocketPeersUidAndPid) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  struct Case {
    const char* what;
    PeerIdentity expected;
    bool is;
  };
  // Both ends of a socket pair belong to this process.
  const Case cases[] = {
      {"this process", own_user_peer(getpid()), true},
      {"any process of this user", own_user_peer(), true},
      {"another process", own_user_peer(getpid() + 1), false},
      {"another user", PeerIdentity{getuid() + 1, getpid()}, false},
  };
  for (const Case& c : cases) {
    std::string why;
    EXPECT_EQ(peer_is(fds[0], c.expected, &why), c.is) << c.what;
    EXPECT_EQ(why.empty(), c.is) << c.what << ": " << why;
  }
  close(fds[0]);
  close(fds[1]);
}

TEST(PeerIs, NoSocketIsNoPeer) {
  std::string why;
  EXPECT_FALSE(peer_is(-1, own_user_peer(), &why));
  EXPECT_FALSE(why.empty());
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_FALSE(peer_is(pipe_fds[0], own_user_peer(), &why));
  close(pipe_fds[0]);
  close(pipe_fds[1]);
}

}  // namespace
}  // namespace companyos::a11y
