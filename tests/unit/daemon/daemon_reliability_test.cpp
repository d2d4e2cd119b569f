// The daemon under the faults of issue 11's outside probes, judged from outside: the store
// file, /proc, the log, the replies other clients get.
#include <pwd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "daemon_process.h"
#include "socket_client.h"

namespace companyos {
namespace {

using namespace std::chrono_literals;
using testing::DaemonProcess;
using testing::LineClient;

// Reads and closes the store from a process of its own, as `sqlite3 DB ...` would.
int outside_reader(const std::string& db, const std::string& out_dir) {
  auto reader = testing::spawn(
      {PYTHON3_PATH, "-c",
       "import sqlite3, sys\n"
       "c = sqlite3.connect(sys.argv[1])\n"
       "c.execute('SELECT count(*) FROM sqlite_master').fetchall()\n"
       "c.close()\n",
       db},
      out_dir);
  return reader->wait(30s);
}

// The descriptors of `pid` that point at deleted files of the store: the WAL an outside
// client deleted under the daemon shows here as "companyos.db-wal (deleted)".
std::vector<std::string> deleted_store_files(pid_t pid, const std::string& db) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    const auto target = std::filesystem::read_symlink(entry.path(), ec).string();
    if (target.rfind(db, 0) == 0 && target.find("(deleted)") != std::string::npos) {
      found.push_back(target);
    }
  }
  return found;
}

TEST_F(DaemonProcess, ConfirmedWritesSurviveSigkillAfterAnOutsideClientReadTheStore) {
  auto daemon = start_serving();
  ASSERT_EQ(outside_reader(db_, tmp_.path().string()), 0);

  LineClient c(testing::connect_unix(socket_));
  auto level = c.call({{"id", 1}, {"method", "settings.set"},
                       {"params", {{"key", "max_level"}, {"value", 2}}}});
  ASSERT_TRUE(level && (*level)["ok"] == true) << (level ? level->dump() : "no reply");
  auto input = c.call({{"id", 2}, {"method", "settings.set"},
                       {"params", {{"key", "physical_input"}, {"value", true}}}});
  ASSERT_TRUE(input && (*input)["ok"] == true) << (input ? input->dump() : "no reply");
  auto created = c.call(
      {{"id", 3}, {"method", "automation.create"},
       {"params", {{"definition", {{"name", "survives a crash"},
                                   {"actions", {{{"type", "command"}, {"executable", "true"},
                                                 {"cwd", "/"}}}}}}}}});
  ASSERT_TRUE(created && (*created)["ok"] == true) << (created ? created->dump() : "no reply");
  const auto automation_id = (*created)["data"]["id"];
  // A second outside read after the writes, as a backup tool or a curious user would.
  ASSERT_EQ(outside_reader(db_, tmp_.path().string()), 0);
  EXPECT_EQ(deleted_store_files(daemon->pid, db_), std::vector<std::string>{})
      << "an outside client deleted the daemon's WAL";

  ASSERT_EQ(::kill(daemon->pid, SIGKILL), 0);
  ASSERT_EQ(daemon->wait(), 128 + SIGKILL);

  auto again = start_serving();
  LineClient after(testing::connect_unix(socket_));
  auto got_level = after.call({{"id", 4}, {"method", "settings.get"}, {"params", {{"key", "max_level"}}}});
  ASSERT_TRUE(got_level.has_value());
  EXPECT_EQ((*got_level)["data"]["value"], 2) << got_level->dump();
  auto got_input = after.call({{"id", 5}, {"method", "settings.get"}, {"params", {{"key", "physical_input"}}}});
  ASSERT_TRUE(got_input.has_value());
  EXPECT_EQ((*got_input)["data"]["value"], true) << got_input->dump();
  auto got = after.call({{"id", 6}, {"method", "automation.get"}, {"params", {{"id", automation_id}}}});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ((*got)["ok"], true) << got->dump();
  ASSERT_EQ(::kill(again->pid, SIGTERM), 0);
  EXPECT_EQ(again->wait(), 0);
}

// A value nested 100,000 deep used to crash the daemon (recursion on the main thread): it
// is refused with INVALID_ARGS before anything recurses over it, and the connection and
// the daemon go on serving.
TEST_F(DaemonProcess, ADeeplyNestedRequestIsRefusedAndTheConnectionKeepsServing) {
  auto daemon = start_serving();
  LineClient c(testing::connect_unix(socket_));
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string requests[] = {
      R"({"id":1,"method":"settings.set","params":{"key":"max_level","value":)" + deep + "}}\n",
      R"({"id":2,"method":"batch","params":{"steps":[{"command":"set-value","args":{"value":)" +
          deep + "}}]}}\n",
  };
  for (const auto& line : requests) {
    ASSERT_TRUE(c.send_raw(line));
    auto refused = c.read_reply();
    ASSERT_TRUE(refused.has_value()) << "no reply to a deeply nested request";
    EXPECT_EQ((*refused)["ok"], false);
    EXPECT_EQ((*refused)["error"]["code"], "INVALID_ARGS") << refused->dump();
    EXPECT_EQ((*refused)["error"]["details"]["max_depth"], 128) << refused->dump();
    auto pong = c.call({{"id", "after"}, {"method", "ping"}});
    ASSERT_TRUE(pong.has_value()) << "the connection must stay usable";
    EXPECT_EQ((*pong)["id"], "after");
    EXPECT_EQ((*pong)["ok"], true);
  }
  EXPECT_TRUE(daemon->running());
}

std::size_t count_lines(const std::string& text, const std::string& containing = {}) {
  std::size_t count = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.compare(start, end - start, "") != 0 &&
        (containing.empty() || text.substr(start, end - start).find(containing) != std::string::npos)) {
      ++count;
    }
    start = end + 1;
  }
  return count;
}

std::size_t open_fds(pid_t pid) {
  std::error_code ec;
  std::size_t count = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++count;
  }
  return count;
}

// CPU time (user + system) the process has used so far.
std::chrono::milliseconds cpu_time(pid_t pid) {
  const std::string stat = testing::read_file("/proc/" + std::to_string(pid) + "/stat");
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  long utime = 0;
  long stime = 0;
  for (int i = 3; fields >> field; ++i) {  // field 3 is the state; 14 utime, 15 stime
    if (i == 14) utime = std::stol(field);
    if (i == 15) {
      stime = std::stol(field);
      break;
    }
  }
  return std::chrono::milliseconds((utime + stime) * 1000 / ::sysconf(_SC_CLK_TCK));
}

// With fewer descriptors than clients, accept() fails with EMFILE and the listening
// socket stays readable: the daemon used to retry at once, forever (a core at 100 % and
// ~170,000 log lines a second). It must pause, say so once, and serve again when
// descriptors free up.
TEST_F(DaemonProcess, OutOfDescriptorsItBacksOffQuietlyAndServesAgainWhenTheyFree) {
  constexpr rlim_t kLimit = 40;
  auto daemon = start_serving({}, [] {
    const rlimit limit{kLimit, kLimit};
    ::setrlimit(RLIMIT_NOFILE, &limit);
  });
  std::vector<UniqueFd> extra;
  for (int i = 0; i < 60; ++i) {  // fewer than the listen backlog past what it can accept
    extra.push_back(testing::connect_unix(socket_));
    ASSERT_TRUE(extra.back().valid()) << i;
  }
  ASSERT_TRUE(testing::wait_for([&] { return open_fds(daemon->pid) >= kLimit; }, 10s))
      << "the daemon never ran out of descriptors: " << open_fds(daemon->pid);
  // A client queued behind the others while nothing can be accepted.
  LineClient waiting(testing::connect_unix(socket_));
  ASSERT_TRUE(waiting.send_json({{"id", "queued"}, {"method", "ping"}}));

  const auto cpu_before = cpu_time(daemon->pid);
  const auto window_start = std::chrono::steady_clock::now();
  EXPECT_FALSE(waiting.read_reply(2s).has_value()) << "served with no descriptor to spare?";
  const auto window = std::chrono::steady_clock::now() - window_start;
  const auto cpu_used = cpu_time(daemon->pid) - cpu_before;
  EXPECT_LT(cpu_used, std::chrono::duration_cast<std::chrono::milliseconds>(window) / 5)
      << "the daemon spun while out of descriptors";
  const std::string log = daemon->stderr_text();
  EXPECT_LT(count_lines(log), 50U) << log.substr(0, 2000);
  EXPECT_TRUE(daemon->running());

  extra.clear();
  auto pong = waiting.read_reply(10s);
  ASSERT_TRUE(pong.has_value()) << "the queued client was never served";
  EXPECT_EQ((*pong)["id"], "queued");
  LineClient fresh(testing::connect_unix(socket_));
  auto again = fresh.call({{"id", "fresh"}, {"method", "ping"}});
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ((*again)["ok"], true);
  EXPECT_LT(count_lines(daemon->stderr_text()), 50U);
}

// Every refused peer of another uid used to be one warning: 2,000 refusals, 2,000 lines.
// Its own socket sits in a 0700 directory that another user cannot even reach, so the
// refusals come through a socket passed as systemd would pass one, in an open directory.
TEST_F(DaemonProcess, RefusalsOfAnotherUserAreLoggedRateLimited) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  testing::TempDir open_dir;
  ASSERT_EQ(::chmod(open_dir.path().c_str(), 0755), 0);
  const std::string passed = open_dir.file("passed.sock");
  UniqueFd fd = testing::bind_unix(passed);
  ASSERT_TRUE(fd.valid()) << std::strerror(errno);
  ASSERT_EQ(::chmod(passed.c_str(), 0666), 0);
  ASSERT_EQ(::listen(fd.get(), 64), 0);
  const int listen_fd = fd.get();
  auto daemon = start_daemon({}, [listen_fd] {
    ::dup2(listen_fd, 3);
    ::setenv("LISTEN_FDS", "1", 1);
    ::setenv("LISTEN_PID", std::to_string(::getpid()).c_str(), 1);
  });
  fd.reset();
  ASSERT_TRUE(testing::wait_until_serving(passed, 10s)) << daemon->stderr_text();

  constexpr int kAttempts = 2000;
  const pid_t child = ::fork();
  if (child == 0) {
    if (::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0) ::_exit(10);
    int refused = 0;
    for (int i = 0; i < kAttempts; ++i) {
      LineClient c(testing::connect_unix(passed));
      auto reply = c.read_reply(5s);
      if (reply && (*reply)["error"]["code"] == "PERM_DENIED") ++refused;
    }
    ::_exit(refused == kAttempts ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "every attempt is refused";
  const std::string log = daemon->stderr_text();
  EXPECT_GE(count_lines(log, "refused"), 1U) << "the first refusal is logged";
  EXPECT_LE(count_lines(log, "refused"), 3U) << log.substr(0, 2000);
  LineClient own(testing::connect_unix(passed));
  auto pong = own.call({{"id", 1}, {"method", "ping"}});
  ASSERT_TRUE(pong.has_value());
  EXPECT_EQ((*pong)["ok"], true);
}

// Clients that pipeline requests and never read their replies used to make the daemon
// queue every reply in memory (GBs) and starve everyone else (ping p99 of seconds).
// Memory is judged from /proc, latency from another client's side.
TEST_F(DaemonProcess, NonReadingPipelinersNeitherGrowTheDaemonNorSlowOtherClients) {
  constexpr int kHogs = 32;
  constexpr std::size_t kBytesPerHog = 300'000;
#if defined(__SANITIZE_ADDRESS__)
  // ASan's shadow memory and its 256 MB quarantine of freed blocks come on top; the bound
  // still catches the unbounded queue this test was written for (0.4 to 1.8 GB).
  constexpr long kRssBoundKb = 600 * 1024;
  // Each `methods` reply costs ten times as much to make there, and a ping waits for one
  // turn of every connection (8 replies each): that build checks that every ping is
  // answered, not how fast. Speed is the release build's to judge.
  constexpr auto kPingBound = 5000ms;
  constexpr std::size_t kMinPings = 2;
#else
  constexpr long kRssBoundKb = 100 * 1024;
  constexpr auto kPingBound = 200ms;  // loose; docs/reliability.md has the measured figure
  constexpr std::size_t kMinPings = 50;
#endif
  auto daemon = start_serving();

  std::string burst;
  while (burst.size() < kBytesPerHog) burst += "{\"id\":1,\"method\":\"methods\"}\n";
  std::vector<UniqueFd> hogs;
  for (int i = 0; i < kHogs; ++i) {
    hogs.push_back(testing::connect_unix(socket_));
    ASSERT_TRUE(hogs.back().valid());
  }

  std::atomic<bool> stop{false};
  std::atomic<long> peak_rss_kb{0};
  // The hogs write what the daemon will take (it may stop reading them) and never read.
  std::thread feeder([&] {
    std::vector<std::size_t> sent(kHogs, 0);
    while (!stop.load()) {
      bool all_sent = true;
      for (int i = 0; i < kHogs; ++i) {
        auto& done = sent[static_cast<std::size_t>(i)];
        if (done >= burst.size()) continue;
        all_sent = false;
        const ssize_t n = ::send(hogs[static_cast<std::size_t>(i)].get(), burst.data() + done,
                                 burst.size() - done, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) done += static_cast<std::size_t>(n);
      }
      if (all_sent) return;
      std::this_thread::sleep_for(1ms);
    }
  });
  // A daemon that grows past the bound has failed already; it is stopped before it can
  // take the machine's memory with it.
  std::thread sampler([&] {
    while (!stop.load()) {
      const auto rss = testing::proc_status_kb(daemon->pid, "VmRSS");
      if (!rss) return;
      peak_rss_kb = std::max(peak_rss_kb.load(), *rss);
      if (*rss > kRssBoundKb) {
        ::kill(daemon->pid, SIGKILL);
        return;
      }
      std::this_thread::sleep_for(20ms);
    }
  });

  std::vector<std::chrono::microseconds> latencies;
  int unanswered = 0;
  {
    LineClient pinger(testing::connect_unix(socket_));
    const auto until = std::chrono::steady_clock::now() + 5s;
    for (int i = 0; std::chrono::steady_clock::now() < until; ++i) {
      const auto start = std::chrono::steady_clock::now();
      auto pong = pinger.call({{"id", i}, {"method", "ping"}});
      if (!pong || (*pong)["id"] != i) {
        ++unanswered;
        break;
      }
      latencies.push_back(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - start));
      std::this_thread::sleep_for(5ms);
    }
  }
  stop = true;
  feeder.join();
  sampler.join();

  EXPECT_LE(peak_rss_kb.load(), kRssBoundKb) << "daemon RSS peaked at " << peak_rss_kb.load() << " kB";
  EXPECT_EQ(unanswered, 0);
  ASSERT_GE(latencies.size(), kMinPings);
  std::sort(latencies.begin(), latencies.end());
  const auto p99 = latencies[latencies.size() * 99 / 100];
  EXPECT_LT(p99, kPingBound) << "ping p99 " << p99.count() << " us over " << latencies.size()
                             << " pings (median " << latencies[latencies.size() / 2].count() << " us)";
  // Figures for the record (ctest --output-on-failure or -V shows them).
  std::cout << "peak VmRSS " << peak_rss_kb.load() << " kB; ping p50 "
            << latencies[latencies.size() / 2].count() << " us, p99 " << p99.count() << " us over "
            << latencies.size() << " pings\n";

  ASSERT_TRUE(daemon->running()) << "the daemon died";
  hogs.clear();
  LineClient after(testing::connect_unix(socket_));
  auto pong = after.call({{"id", "after"}, {"method", "ping"}});
  ASSERT_TRUE(pong.has_value());
  EXPECT_EQ((*pong)["ok"], true);
}

}  // namespace
}  // namespace companyos
