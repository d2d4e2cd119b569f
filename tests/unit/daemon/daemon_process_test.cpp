// Runs the real companyosd and companyos binaries: start-up refusals, signals, crash
// recovery, systemd socket activation and the CLI's exit codes.
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include <set>

#include "daemon_process.h"
#include "socket_client.h"
#include "store/migrations.h"

namespace companyos {
namespace {

using namespace std::chrono_literals;
using testing::CliResult;
using testing::DaemonProcess;
using testing::LineClient;
using testing::spawn;

TEST_F(DaemonProcess, ServesStatusAndCleansUpOnSigterm) {
  auto daemon = start_serving();
  LineClient c(testing::connect_unix(socket_));
  auto status = c.call({{"id", "s"}, {"method", "status"}});
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ((*status)["ok"], true);
  EXPECT_EQ((*status)["data"]["socket"], socket_);
  EXPECT_EQ((*status)["data"]["store"]["path"], db_);
  EXPECT_EQ((*status)["data"]["store"]["schema_version"], companyos::store::builtin_migrations().back().version);
  EXPECT_EQ((*status)["data"]["pid"], daemon->pid);

  ASSERT_EQ(::kill(daemon->pid, SIGTERM), 0);
  EXPECT_EQ(daemon->wait(), 0) << daemon->stderr_text();
  struct stat st{};
  EXPECT_NE(::lstat(socket_.c_str(), &st), 0) << "the socket it created must be removed";
  EXPECT_EQ(::stat(db_.c_str(), &st), 0) << "the store stays";
}

TEST_F(DaemonProcess, SigintAlsoStopsCleanly) {
  auto daemon = start_serving();
  ASSERT_EQ(::kill(daemon->pid, SIGINT), 0);
  EXPECT_EQ(daemon->wait(), 0);
}

TEST_F(DaemonProcess, ASecondDaemonOnTheSameSocketExitsOneNamingIt) {
  auto first = start_serving();
  auto second = start_daemon();
  EXPECT_EQ(second->wait(), 1);
  EXPECT_NE(second->stderr_text().find(socket_), std::string::npos) << second->stderr_text();
  LineClient c(testing::connect_unix(socket_));
  auto pong = c.call({{"id", 1}, {"method", "ping"}});
  ASSERT_TRUE(pong.has_value()) << "the first daemon must keep serving";
  EXPECT_EQ((*pong)["ok"], true);
}

TEST_F(DaemonProcess, RefusesAGroupReadableSocketDirectory) {
  ASSERT_EQ(::mkdir(tmp_.file("run").c_str(), 0750), 0);
  ASSERT_EQ(::chmod(tmp_.file("run").c_str(), 0750), 0);
  auto daemon = start_daemon();
  EXPECT_EQ(daemon->wait(), 1);
  EXPECT_NE(daemon->stderr_text().find("mode 0750"), std::string::npos) << daemon->stderr_text();
}

TEST_F(DaemonProcess, AnotherUserCannotEvenConnect) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  auto daemon = start_serving();
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  pid_t child = ::fork();
  if (child == 0) {
    if (::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0) ::_exit(10);
    ::_exit(testing::connect_unix(socket_).valid() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(DaemonProcess, RestartsAfterSigkillDuringAWriteBurstWithConsistentSettings) {
  for (int round = 0; round < 3; ++round) {
    auto daemon = start_serving();
    std::atomic<bool> stop{false};
    std::atomic<int> acknowledged{0};
    std::thread writer([&] {
      LineClient c(testing::connect_unix(socket_));
      for (int i = 0; !stop.load(); ++i) {
        auto r = c.call({{"id", i}, {"method", "settings.set"},
                         {"params", {{"key", "max_level"}, {"value", i % 2 == 0 ? 2 : 4}}}});
        if (!r) return;
        ++acknowledged;
      }
    });
    while (acknowledged.load() < 50 + round * 37) std::this_thread::sleep_for(1ms);
    ASSERT_EQ(::kill(daemon->pid, SIGKILL), 0);
    EXPECT_EQ(daemon->wait(), 128 + SIGKILL);
    stop = true;
    writer.join();

    // The killed daemon left its socket behind: the next start must replace it.
    auto again = start_serving();
    LineClient c(testing::connect_unix(socket_));
    auto value = c.call({{"id", 1}, {"method", "settings.get"}, {"params", {{"key", "max_level"}}}});
    ASSERT_TRUE(value.has_value());
    ASSERT_EQ((*value)["ok"], true) << value->dump();
    const auto level = (*value)["data"]["value"];
    EXPECT_TRUE(level == 2 || level == 4) << level;
    ASSERT_EQ(::kill(again->pid, SIGTERM), 0);
    ASSERT_EQ(again->wait(), 0);
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &raw), SQLITE_OK);
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA integrity_check", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "ok");
  sqlite3_finalize(stmt);
}

TEST_F(DaemonProcess, UsesASocketPassedBySystemdAndLeavesItInPlace) {
  ASSERT_EQ(::mkdir(tmp_.file("sd").c_str(), 0700), 0);
  const std::string passed = tmp_.file("sd/passed.sock");
  UniqueFd fd = testing::bind_unix(passed);
  ASSERT_TRUE(fd.valid()) << std::strerror(errno);
  ASSERT_EQ(::listen(fd.get(), 8), 0);
  const int listen_fd = fd.get();
  auto daemon = spawn({COMPANYOSD_PATH, "--socket", socket_, "--db", db_}, tmp_.path().string(), [listen_fd] {
    ::dup2(listen_fd, 3);
    ::setenv("LISTEN_FDS", "1", 1);
    ::setenv("LISTEN_PID", std::to_string(::getpid()).c_str(), 1);
  });
  fd.reset();
  LineClient c(testing::connect_unix(passed));
  auto status = c.call({{"id", 1}, {"method", "status"}});
  ASSERT_TRUE(status.has_value()) << daemon->stderr_text();
  EXPECT_EQ((*status)["data"]["socket"], passed);
  struct stat st{};
  EXPECT_NE(::lstat(socket_.c_str(), &st), 0) << "no socket of its own when systemd passed one";
  ASSERT_EQ(::kill(daemon->pid, SIGTERM), 0);
  EXPECT_EQ(daemon->wait(), 0);
  EXPECT_EQ(::lstat(passed.c_str(), &st), 0) << "a socket systemd passed is not ours to remove";
}

TEST_F(DaemonProcess, CliExitCodes) {
  auto unreachable = cli({"--socket", socket_, "status"});
  EXPECT_EQ(unreachable.exit_code, 3);
  EXPECT_NE(unreachable.err.find(socket_), std::string::npos);
  EXPECT_NE(unreachable.err.find("companyosd"), std::string::npos);

  EXPECT_EQ(cli({"--socket", socket_, "no-such-command"}).exit_code, 2);
  EXPECT_EQ(cli({"--socket", socket_}).exit_code, 2);
  EXPECT_EQ(cli({"--socket", socket_, "settings", "set", "max_level"}).exit_code, 2);
  auto help = cli({"settings", "set", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Examples:"), std::string::npos);

  auto daemon = start_serving();
  auto json = cli({"--socket", socket_, "--json", "ping"});
  EXPECT_EQ(json.exit_code, 0);
  auto envelope = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(envelope.is_object()) << json.out;
  EXPECT_EQ(envelope["ok"], true);
  EXPECT_TRUE(envelope.contains("id"));
  EXPECT_EQ(envelope["data"]["pong"], true);

  auto bad = cli({"--socket", socket_, "settings", "set", "max_level", "9"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("INVALID_ARGS"), std::string::npos);
  auto bad_json = cli({"--socket", socket_, "--json", "settings", "set", "max_level", "9"});
  EXPECT_EQ(bad_json.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(bad_json.out)["error"]["code"], "INVALID_ARGS");

  auto set = cli({"--socket", socket_, "settings", "set", "unattended", "true"});
  EXPECT_EQ(set.exit_code, 0) << set.err;
  auto get = cli({"--socket", socket_, "settings", "get", "unattended"});
  EXPECT_EQ(get.out, "yes\n");
}

// settings.set can switch physical input on: the dispatcher audits it like any effectful
// method, by its declared name, refused or not, and never with the value.
TEST_F(DaemonProcess, SettingsChangesAreAuditedWithoutTheirValues) {
  auto daemon = start_serving();
  LineClient c(testing::connect_unix(socket_));
  auto set = c.call({{"id", 1}, {"method", "settings.set"},
                     {"params", {{"key", "agent_desktop_path"}, {"value", "/nonexistent/secret-path"}}}});
  ASSERT_TRUE(set.has_value());
  auto refused = c.call({{"id", 2}, {"method", "settings.set"}, {"params", {{"key", "max_level"}, {"value", 9}}}});
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ((*refused)["ok"], false);
  auto audit = c.call({{"id", 3}, {"method", "audit"}, {"params", {{"limit", 10}}}});
  ASSERT_TRUE(audit.has_value());
  ASSERT_EQ((*audit)["ok"], true) << audit->dump();
  const auto& rows = (*audit)["data"]["rows"];
  int settings_rows = 0;
  bool refusal_recorded = false;
  for (const auto& row : rows) {
    if (row["method"] != "settings.set") continue;
    ++settings_rows;
    if (row["error_code"] == "INVALID_ARGS") refusal_recorded = true;
  }
  EXPECT_EQ(settings_rows, 2) << rows.dump();
  EXPECT_TRUE(refusal_recorded) << rows.dump();
  EXPECT_EQ(rows.dump().find("secret-path"), std::string::npos) << "an audit row holds a value";
  // A request refused by the declaration itself (a wrong type) never reaches the handler
  // and writes no row: nothing was attempted.
  auto typed = c.call({{"id", 4}, {"method", "settings.set"}, {"params", {{"key", 3}, {"value", 1}}}});
  ASSERT_TRUE(typed.has_value());
  EXPECT_EQ((*typed)["error"]["details"]["param"], "key");
  auto after = c.call({{"id", 5}, {"method", "audit"}, {"params", {{"limit", 10}}}});
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ((*after)["data"]["rows"].size(), rows.size());
}

// An agent (every request companyos mcp sends says "origin":"agent") can neither switch on
// what only the person may nor earn its automation's promotion: its start of a level-3
// automation waits for the person and is not supervised; only the person's approval or start
// counts; the audit says who asked.
TEST_F(DaemonProcess, AnAgentCannotEarnItsOwnAutonomy) {
  auto daemon = start_serving();
  LineClient person(testing::connect_unix(socket_));
  LineClient agent(testing::connect_unix(socket_));
  int next_id = 1;
  auto ask = [&](LineClient& client, const std::string& method, nlohmann::json params, bool as_agent) {
    nlohmann::json request = {{"id", next_id++}, {"method", method}, {"params", std::move(params)}};
    if (as_agent) request["origin"] = "agent";
    auto reply = client.call(request);
    EXPECT_TRUE(reply.has_value()) << method;
    return reply.value_or(nlohmann::json::object());
  };
  auto created = ask(person, "automation.create",
                     {{"definition", {{"name", "agent's own"},
                                      {"actions", {{{"type", "command"}, {"executable", "true"}, {"cwd", "/"}}}}}}},
                     false);
  ASSERT_EQ(created["ok"], true) << created.dump();
  const auto id = created["data"]["id"];

  // What only the person may do is refused to the agent, and nothing changes.
  for (const auto& [method, params] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"automation.raise", {{"id", id}}},
           {"automation.promote", {{"id", id}}},
           {"settings.set", {{"key", "physical_input"}, {"value", true}}},
           {"settings.set", {{"key", "unattended"}, {"value", true}}}}) {
    auto refused = ask(agent, method, params, true);
    EXPECT_EQ(refused["ok"], false) << method;
    EXPECT_EQ(refused["error"]["code"], "POLICY_DENIED") << refused.dump();
    EXPECT_EQ(refused["error"]["details"]["reason"], "person_only") << refused.dump();
  }
  EXPECT_EQ(ask(person, "settings.get", {{"key", "physical_input"}}, false)["data"]["value"], false);
  EXPECT_EQ(ask(person, "automation.get", {{"id", id}}, false)["data"]["level"], 1);

  ASSERT_EQ(ask(person, "automation.raise", {{"id", id}}, false)["ok"], true);
  ASSERT_EQ(ask(person, "automation.raise", {{"id", id}}, false)["data"]["level"], 3);

  // The agent's start waits for the person; the agent cannot approve it.
  auto started = ask(agent, "automation.start", {{"id", id}}, true);
  ASSERT_EQ(started["ok"], true) << started.dump();
  const auto agents_run = started["data"]["id"];
  EXPECT_EQ(started["data"]["status"], "waiting") << started.dump();
  EXPECT_EQ(started["data"]["started_by"], "agent");
  EXPECT_EQ(started["data"]["supervised"], false);
  auto approved_by_agent = ask(agent, "run.approve", {{"id", agents_run}}, true);
  EXPECT_EQ(approved_by_agent["error"]["details"]["reason"], "person_only") << approved_by_agent.dump();
  // The person denies it: it ends blocked, never supervised.
  auto denied = ask(person, "run.deny", {{"id", agents_run}}, false);
  ASSERT_EQ(denied["ok"], true) << denied.dump();
  auto shown = ask(person, "run.show", {{"id", agents_run}}, false);
  EXPECT_EQ(shown["data"]["status"], "blocked");
  EXPECT_EQ(shown["data"]["supervised"], false);
  EXPECT_EQ(shown["data"]["started_by"], "agent");

  // The person's own start at level 3 is supervised.
  auto by_person = ask(person, "automation.start", {{"id", id}}, false);
  ASSERT_EQ(by_person["ok"], true) << by_person.dump();
  EXPECT_EQ(by_person["data"]["started_by"], "person");
  EXPECT_EQ(by_person["data"]["supervised"], true);

  // The audit says who asked.
  auto audit = ask(person, "audit", {{"limit", 50}}, false);
  std::multiset<std::string> starts;
  bool refused_setting_by_agent = false;
  for (const auto& row : audit["data"]["rows"]) {
    if (row["method"] == "automation.start") starts.insert(row["origin"].get<std::string>());
    if (row["method"] == "settings.set" && row["origin"] == "agent" && row["error_code"] == "POLICY_DENIED") {
      refused_setting_by_agent = true;
    }
  }
  EXPECT_EQ(starts, (std::multiset<std::string>{"agent", "person"})) << audit.dump();
  EXPECT_TRUE(refused_setting_by_agent) << audit.dump();
}

}  // namespace
}  // namespace companyos
