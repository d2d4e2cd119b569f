#include "daemon/server/server.h"

#include <glib.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include <gtest/gtest.h>

#include "companyos/protocol.h"
#include "companyos/result.h"
#include "core/clock.h"
#include "daemon/server/request.h"
#include "daemon/server/socket_setup.h"
#include "socket_client.h"
#include "temp_dir.h"

namespace companyos::daemon {
namespace {

using namespace std::chrono_literals;
using companyos::testing::LineClient;

// Iterates the default main context until done() or the deadline.
template <typename Pred>
bool spin_until(Pred done, std::chrono::milliseconds timeout = 10s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    g_main_context_iteration(nullptr, FALSE);
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// A "hold" request: answered only when the test says so; its client_gone token is kept.
struct HeldRequest {
  nlohmann::json id;
  std::stop_token client_gone;
  std::function<void(std::string)> done;
};
std::vector<HeldRequest>& held_requests() {
  static std::vector<HeldRequest> held;
  return held;
}

// Answers "echo" at once, "later" after params.ms on a timer, "big" with params.bytes of data,
// "count" with how many requests were dispatched so far, "hold" when the test calls its done.
std::atomic<int>& dispatched_requests() {
  static std::atomic<int> count{0};
  return count;
}

void test_handler(const FramedLine& line, std::stop_token client_gone,
                  std::function<void(std::string)> done) {
  ++dispatched_requests();
  auto parsed = parse_request(line);
  if (auto* bad = std::get_if<RequestError>(&parsed)) {
    done(protocol::to_line(protocol::error_envelope(bad->id, bad->error)));
    return;
  }
  auto request = std::get<Request>(std::move(parsed));
  if (request.method == "hold") {
    held_requests().push_back({request.id, std::move(client_gone), std::move(done)});
    return;
  }
  if (request.method == "later") {
    struct Pending {
      std::function<void(std::string)> done;
      nlohmann::json id;
    };
    auto pending = std::make_unique<Pending>(Pending{std::move(done), request.id});
    g_timeout_add_full(G_PRIORITY_DEFAULT, request.params.value("ms", 0u),
                       [](gpointer p) -> gboolean {
                         auto* pend = static_cast<Pending*>(p);
                         pend->done(protocol::to_line(protocol::ok_envelope(pend->id, {{"late", true}})));
                         return G_SOURCE_REMOVE;
                       },
                       pending.release(), [](gpointer p) { std::unique_ptr<Pending>(static_cast<Pending*>(p)); });
    return;
  }
  if (request.method == "count") {
    done(protocol::to_line(protocol::ok_envelope(request.id, {{"dispatched", dispatched_requests().load()}})));
    return;
  }
  if (request.method == "big") {
    std::string payload(request.params.value("bytes", 0u), 'x');
    done(protocol::to_line(protocol::ok_envelope(request.id, {{"payload", payload}})));
    return;
  }
  done(protocol::to_line(protocol::ok_envelope(request.id, request.params)));
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::chmod(tmp_.path().c_str(), 0700), 0);
    path_ = tmp_.file("s");
    auto listener = listen_on_path(path_);
    ASSERT_TRUE(listener.ok()) << listener.error().message;
    server_ = std::make_unique<Server>(std::move(listener->fd), ::geteuid(), test_handler, clock_);
  }
  void TearDown() override {
    held_requests().clear();
    server_.reset();
    while (g_main_context_iteration(nullptr, FALSE)) {
    }
  }

  companyos::testing::TempDir tmp_;
  std::string path_;
  FakeClock clock_;
  std::unique_ptr<Server> server_;
};

TEST_F(ServerTest, AnswersInOrderEvenWhenLaterRequestsWouldFinishFirst) {
  std::vector<nlohmann::json> replies;
  std::atomic<bool> client_done{false};
  std::thread client([&] {
    LineClient c(companyos::testing::connect_unix(path_));
    std::string burst;
    for (int i = 0; i < 20; ++i) {
      burst += nlohmann::json{{"id", i}, {"method", "later"}, {"params", {{"ms", (20 - i) * 3}}}}.dump() + "\n";
    }
    c.send_raw(burst);
    for (int i = 0; i < 20; ++i) {
      auto r = c.read_reply();
      if (!r) break;
      replies.push_back(*r);
    }
    client_done = true;
  });
  // The client thread owns `replies` until it says it is done.
  bool finished = spin_until([&] { return client_done.load(); });
  client.join();
  ASSERT_TRUE(finished);
  ASSERT_EQ(replies.size(), 20U);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(replies[static_cast<std::size_t>(i)]["id"], i);
}

TEST_F(ServerTest, BadLinesGetInvalidArgsAndTheConnectionStaysUsable) {
  std::vector<nlohmann::json> replies;
  std::atomic<bool> client_done{false};
  std::thread client([&] {
    LineClient c(companyos::testing::connect_unix(path_));
    c.send_raw("not json\n[1]\n{\"id\":1,\"method\":\"echo\"}\n");
    c.send_raw(std::string(protocol::kMaxLineBytes + 1, 'x') + "\n");
    c.send_raw("{\"id\":2,\"method\":\"echo\",\"params\":{\"v\":\"\xc3\xa9\"}}\n\xff\xfe\n{\"id\":3,\"method\":\"echo\"}\n");
    for (int i = 0; i < 7; ++i) {
      auto r = c.read_reply();
      if (!r) break;
      replies.push_back(*r);
    }
    client_done = true;
  });
  // The client thread owns `replies` until it says it is done.
  bool finished = spin_until([&] { return client_done.load(); }, 30s);
  client.join();
  ASSERT_TRUE(finished);
  ASSERT_EQ(replies.size(), 7U);
  EXPECT_EQ(replies[0]["error"]["code"], "INVALID_ARGS");
  EXPECT_EQ(replies[1]["error"]["code"], "INVALID_ARGS");
  EXPECT_EQ(replies[2]["ok"], true);
  EXPECT_EQ(replies[3]["error"]["code"], "INVALID_ARGS");
  EXPECT_NE(replies[3]["error"]["message"].get<std::string>().find("longer than"), std::string::npos);
  EXPECT_EQ(replies[4]["data"]["v"], "\xc3\xa9");
  EXPECT_EQ(replies[5]["error"]["code"], "INVALID_ARGS");
  EXPECT_EQ(replies[6]["id"], 3);
}

TEST_F(ServerTest, ASlowReaderDoesNotBlockOtherClients) {
  // The hog asks for 64 MiB of replies and never reads them.
  LineClient hog(companyos::testing::connect_unix(path_));
  std::string burst;
  for (int i = 0; i < 64; ++i) burst += nlohmann::json{{"id", i}, {"method", "big"}, {"params", {{"bytes", 1 << 20}}}}.dump() + "\n";
  std::thread feeder([&] { hog.send_raw(burst); });
  // A half-written line from a third client must not block anyone either.
  LineClient half(companyos::testing::connect_unix(path_));
  half.send_raw("{\"id\":1,\"meth");

  std::atomic<int> answered{0};
  std::thread polite([&] {
    LineClient c(companyos::testing::connect_unix(path_));
    for (int i = 0; i < 50; ++i) {
      auto r = c.call({{"id", i}, {"method", "echo"}});
      if (!r || (*r)["id"] != i) return;
      ++answered;
    }
  });
  bool finished = spin_until([&] { return answered.load() == 50; });
  polite.join();
  ::shutdown(hog.fd(), SHUT_RDWR);
  feeder.join();
  EXPECT_TRUE(finished) << answered.load();
}

TEST_F(ServerTest, ManyClientsAtOnce) {
  constexpr int kClients = 32;
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kClients; ++t) {
    threads.emplace_back([&, t] {
      LineClient c(companyos::testing::connect_unix(path_));
      for (int i = 0; i < 20; ++i) {
        auto r = c.call({{"id", t * 100 + i}, {"method", "echo"}, {"params", {{"t", t}}}});
        if (!r || (*r)["data"]["t"] != t) return;
      }
      ++done;
    });
  }
  bool finished = spin_until([&] { return done.load() == kClients; });
  for (auto& th : threads) th.join();
  EXPECT_TRUE(finished) << done.load();
}

// A client that pipelines and does not read is answered only as far as its unsent
// replies stay under the bound (1 MiB) — not 19 MiB at once — and the rest follow, in
// order, as it reads.
TEST_F(ServerTest, APipeliningClientThatDoesNotReadIsAnsweredOnlyAsItReads) {
  constexpr int kRequests = 300;
  constexpr unsigned kReplyBytes = 64 * 1024;
  LineClient c(companyos::testing::connect_unix(path_));
  std::string burst;
  for (int i = 0; i < kRequests; ++i) {
    burst += nlohmann::json{{"id", i}, {"method", "big"}, {"params", {{"bytes", kReplyBytes}}}}.dump() + "\n";
  }
  dispatched_requests() = 0;
  ASSERT_TRUE(c.send_raw(burst));  // ~17 KB: the socket buffer takes it all
  // Run the server until it stops answering (nothing changes for 200 ms).
  int last = -1;
  auto stable_since = std::chrono::steady_clock::now();
  ASSERT_TRUE(spin_until([&] {
    const int now = dispatched_requests().load();
    if (now != last) {
      last = now;
      stable_since = std::chrono::steady_clock::now();
    }
    return now > 0 && std::chrono::steady_clock::now() - stable_since > 200ms;
  }));
  // 1 MiB of unsent replies, plus what the socket's buffers took, plus the one that
  // crossed the bound: a few dozen 64 KiB replies at most.
  EXPECT_LT(dispatched_requests().load(), 60) << "dispatch ran ahead of a client that does not read";

  std::vector<nlohmann::json> ids;
  std::atomic<bool> finished{false};
  std::thread reader([&] {
    for (int i = 0; i < kRequests; ++i) {
      auto r = c.read_reply();
      if (!r) break;
      ids.push_back((*r)["id"]);
    }
    finished = true;
  });
  EXPECT_TRUE(spin_until([&] { return finished.load(); }, 30s));
  reader.join();
  ASSERT_EQ(ids.size(), static_cast<std::size_t>(kRequests)) << "dispatch never resumed";
  for (int i = 0; i < kRequests; ++i) EXPECT_EQ(ids[static_cast<std::size_t>(i)], i);
}

// A client with a long pipeline of quick requests has them answered a few per turn of the
// main loop, so another client's request, ready in the same turn, is not answered only
// after all of them (before, one callback answered the whole queue first).
TEST_F(ServerTest, AnotherClientIsAnsweredBetweenTurnsOfALongPipeline) {
  constexpr int kPipelined = 200;
  LineClient a(companyos::testing::connect_unix(path_));
  LineClient b(companyos::testing::connect_unix(path_));
  std::string burst;
  for (int i = 0; i < kPipelined; ++i) burst += nlohmann::json{{"id", i}, {"method", "echo"}}.dump() + "\n";
  dispatched_requests() = 0;
  // Both are in their sockets before the server's loop turns once.
  ASSERT_TRUE(a.send_raw(burst));
  ASSERT_TRUE(b.send_raw(nlohmann::json{{"id", "b"}, {"method", "count"}}.dump() + "\n"));
  std::optional<nlohmann::json> reply;
  std::thread reader([&] { reply = b.read_reply(10s); });
  EXPECT_TRUE(spin_until([&] { return dispatched_requests().load() > kPipelined; }, 10s));
  reader.join();
  ASSERT_TRUE(reply.has_value());
  EXPECT_LT((*reply)["data"]["dispatched"].get<int>(), kPipelined / 2)
      << "b waited until a's whole pipeline was answered";
  for (int i = 0; i < kPipelined; ++i) {
    auto r = a.read_reply();
    ASSERT_TRUE(r.has_value()) << i;
    EXPECT_EQ((*r)["id"], i);
  }
}

// A killed client closes its socket with a request in flight: the handler learns it, so
// work nobody will read (a long wait) can end. A client that only shut down its sending
// side still reads its reply, so it is not gone.
TEST_F(ServerTest, AClientThatClosesIsGoneButOneThatOnlyStopsSendingIsNot) {
  {
    LineClient closing(companyos::testing::connect_unix(path_));
    ASSERT_TRUE(closing.send_json({{"id", 1}, {"method", "hold"}}));
    ASSERT_TRUE(spin_until([] { return held_requests().size() == 1; }));
    EXPECT_FALSE(held_requests()[0].client_gone.stop_requested());
  }
  EXPECT_TRUE(spin_until([] { return held_requests()[0].client_gone.stop_requested(); }));

  LineClient half(companyos::testing::connect_unix(path_));
  ASSERT_TRUE(half.send_json({{"id", 2}, {"method", "hold"}}));
  ASSERT_EQ(::shutdown(half.fd(), SHUT_WR), 0);
  ASSERT_TRUE(spin_until([] { return held_requests().size() == 2; }));
  // The server has seen the end of its input and watches for a hang-up now; give that
  // watch every chance to misfire before answering.
  for (int i = 0; i < 50; ++i) g_main_context_iteration(nullptr, FALSE);
  EXPECT_FALSE(held_requests()[1].client_gone.stop_requested());
  held_requests()[1].done(protocol::to_line(protocol::ok_envelope(2, {{"held", true}})));
  std::optional<nlohmann::json> reply;
  std::atomic<bool> read{false};
  std::thread reader([&] {
    reply = half.read_reply();
    read = true;
  });
  spin_until([&] { return read.load(); }, 15s);
  reader.join();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ((*reply)["data"]["held"], true);
}

TEST(ServerPeerCredentials, AClientOfAnotherUidIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run a client as another user";
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  companyos::testing::TempDir tmp;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0755), 0);
  // A deliberately open socket, so only SO_PEERCRED stands between nobody and the server.
  const std::string path = tmp.file("open.sock");
  UniqueFd listen_fd = companyos::testing::bind_unix(path, SOCK_NONBLOCK | SOCK_CLOEXEC);
  ASSERT_TRUE(listen_fd.valid()) << std::strerror(errno);
  ASSERT_EQ(::chmod(path.c_str(), 0666), 0);
  ASSERT_EQ(::listen(listen_fd.get(), 8), 0);
  std::atomic<int> handled{0};
  FakeClock clock;
  Server server(std::move(listen_fd), ::geteuid(), [&](const FramedLine& line, std::stop_token client_gone,
                                                         std::function<void(std::string)> done) {
    ++handled;
    test_handler(line, std::move(client_gone), std::move(done));
  }, clock);

  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0) ::_exit(10);
    LineClient c(companyos::testing::connect_unix(path));
    if (!c.valid()) ::_exit(11);
    c.send_json({{"id", 1}, {"method", "echo"}});
    auto reply = c.read_reply(5s);
    if (!reply) ::_exit(12);
    if ((*reply)["ok"] != false || (*reply)["error"]["code"] != "PERM_DENIED") ::_exit(13);
    // And nothing more: the server hung up.
    if (c.read_reply(2s).has_value()) ::_exit(14);
    ::_exit(0);
  }
  int status = 0;
  bool exited = spin_until([&] { return ::waitpid(child, &status, WNOHANG) == child; }, 20s);
  ASSERT_TRUE(exited);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
  EXPECT_EQ(handled.load(), 0) << "no request of another uid may reach a handler";
}

}  // namespace
}  // namespace companyos::daemon
