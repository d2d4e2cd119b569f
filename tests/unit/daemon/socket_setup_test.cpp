#include "daemon/server/socket_setup.h"

#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <gtest/gtest.h>

#include "socket_client.h"
#include "temp_dir.h"

namespace companyos::daemon {
namespace {

mode_t mode_of(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(SocketSetup, CreatesPrivateDirectoryAndSocket) {
  companyos::testing::TempDir tmp;
  const std::string path = tmp.file("run/control.sock");
  auto listener = listen_on_path(path);
  ASSERT_TRUE(listener.ok()) << listener.error().message;
  EXPECT_TRUE(listener->created_by_us);
  EXPECT_EQ(mode_of(tmp.file("run")), 0700U);
  EXPECT_EQ(mode_of(path), 0600U);
  EXPECT_TRUE(companyos::testing::connect_unix(path).valid());
}

TEST(SocketSetup, RefusesGroupOrWorldAccessibleDirectory) {
  for (mode_t mode : {0750, 0705, 0777, 0710}) {
    companyos::testing::TempDir tmp;
    ASSERT_EQ(::mkdir(tmp.file("d").c_str(), 0700), 0);
    ASSERT_EQ(::chmod(tmp.file("d").c_str(), mode), 0);
    auto listener = listen_on_path(tmp.file("d/s"));
    ASSERT_FALSE(listener.ok()) << std::oct << mode;
    EXPECT_EQ(listener.error().code, ErrorCode::kPermDenied);
    EXPECT_NE(listener.error().message.find("mode"), std::string::npos);
    struct stat st{};
    EXPECT_NE(::lstat(tmp.file("d/s").c_str(), &st), 0) << "no socket may be created";
  }
}

TEST(SocketSetup, RefusesDirectoryOwnedBySomeoneElse) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown a directory to another user";
  companyos::testing::TempDir tmp;
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  ASSERT_EQ(::mkdir(tmp.file("d").c_str(), 0700), 0);
  ASSERT_EQ(::chown(tmp.file("d").c_str(), nobody->pw_uid, nobody->pw_gid), 0);
  auto listener = listen_on_path(tmp.file("d/s"));
  ASSERT_FALSE(listener.ok());
  EXPECT_EQ(listener.error().code, ErrorCode::kPermDenied);
  EXPECT_NE(listener.error().message.find("owned by uid"), std::string::npos);
}

TEST(SocketSetup, ReplacesAStaleSocket) {
  companyos::testing::TempDir tmp;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0700), 0);
  const std::string path = tmp.file("s");
  {
    // Bound but never listening, then closed: what a crashed daemon leaves.
    UniqueFd fd = testing::bind_unix(path);
    ASSERT_TRUE(fd.valid()) << std::strerror(errno);
  }
  auto listener = listen_on_path(path);
  ASSERT_TRUE(listener.ok()) << listener.error().message;
  EXPECT_TRUE(companyos::testing::connect_unix(path).valid());
}

TEST(SocketSetup, RefusesWhenAnotherDaemonServes) {
  companyos::testing::TempDir tmp;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0700), 0);
  const std::string path = tmp.file("s");
  auto first = listen_on_path(path);
  ASSERT_TRUE(first.ok());
  auto second = listen_on_path(path);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, ErrorCode::kConflict);
  EXPECT_NE(second.error().message.find(path), std::string::npos);
  EXPECT_TRUE(companyos::testing::connect_unix(path).valid()) << "the first must keep serving";
}

TEST(SocketSetup, NeverReplacesAFileThatIsNotASocket) {
  companyos::testing::TempDir tmp;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0700), 0);
  const std::string path = tmp.file("s");
  std::ofstream(path) << "precious";
  auto listener = listen_on_path(path);
  ASSERT_FALSE(listener.ok());
  std::ifstream in(path);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "precious");
}

TEST(SocketSetup, RejectsPathsTooLongForAUnixSocket) {
  auto listener = listen_on_path("/tmp/" + std::string(200, 'x'));
  ASSERT_FALSE(listener.ok());
  EXPECT_EQ(listener.error().code, ErrorCode::kInvalidArgs);
}

TEST(SocketSetup, NoSystemdSocketWithoutListenFds) {
  ::unsetenv("LISTEN_FDS");
  ::unsetenv("LISTEN_PID");
  auto passed = listener_from_systemd();
  ASSERT_TRUE(passed.ok());
  EXPECT_FALSE(passed->has_value());
}

}  // namespace
}  // namespace companyos::daemon
