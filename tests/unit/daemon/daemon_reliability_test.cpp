// The daemon under the faults of issue 11's outside probes, judged from outside: the store
// file, /proc, the log, the replies other clients get.
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <filesystem>
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

}  // namespace
}  // namespace companyos
