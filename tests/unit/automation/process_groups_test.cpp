#include "automation/process_groups.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <thread>

#include "automation/command_process.h"
#include "core/clock.h"
#include "core/process_spawn.h"

namespace companyos::automation {
namespace {

struct JudgeCase {
  const char* name;
  ProcessFacts now;
  LeftOver expected;
  friend void PrintTo(const JudgeCase& c, std::ostream* os) { *os << c.name; }
};

const GroupRecord kRecord{4242, "boot-a", 1000, 7};

class Judge : public ::testing::TestWithParam<JudgeCase> {};

TEST_P(Judge, KillsOnlyAGroupThatIsProvablyTheRecordedOne) {
  EXPECT_EQ(judge_left_over(kRecord, GetParam().now), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, Judge,
    ::testing::Values(JudgeCase{"leader_running", {"boot-a", 1000, true}, LeftOver::kOurs},
                      JudgeCase{"leader_gone_members_left", {"boot-a", std::nullopt, true}, LeftOver::kOurs},
                      JudgeCase{"nothing_left", {"boot-a", std::nullopt, false}, LeftOver::kGone},
                      JudgeCase{"pid_reused_by_another_leader", {"boot-a", 1001, true}, LeftOver::kReused},
                      JudgeCase{"rebooted_since", {"boot-b", 1000, true}, LeftOver::kGone}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ProcessGroupRecordText, RoundTripsAndRefusesTornOrForeignText) {
  const auto parsed = parse_record(4242, format_record(kRecord));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->boot_id, "boot-a");
  EXPECT_EQ(parsed->start_time, 1000u);
  EXPECT_EQ(parsed->run_id, 7);
  for (const char* bad : {"", "boot-a 1000 7", "boot-a 1000\n", " 1000 7\n", "boot-a x 7\n", "boot-a 1000 7x\n",
                          "boot-a -1 7\n"}) {
    EXPECT_FALSE(parse_record(4242, bad)) << bad;
  }
  EXPECT_FALSE(parse_record(0, format_record(kRecord)));
}

class ProcessGroupRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/companyos-groups-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    root_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  // A sleeping child in a group of its own, as a command step runs.
  pid_t sleeper() {
    SpawnRequest request;
    request.program = "sleep";
    request.argv = {"sleep", "300"};
    auto pid = spawn_process(request);
    EXPECT_TRUE(pid) << pid.error().message;
    return pid ? *pid : -1;
  }

  // How the child ended, waiting at most 10 s (it must have been killed by then).
  std::optional<int> end_signal(pid_t pid) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 0;
    while (std::chrono::steady_clock::now() < until) {
      const pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid) return WIFSIGNALED(status) ? std::optional<int>(WTERMSIG(status)) : std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
  }

  std::filesystem::path root_;
};

TEST_F(ProcessGroupRecordTest, TheNextDaemonKillsARecordedGroupAndForgetsIt) {
  const pid_t pid = sleeper();
  ASSERT_GT(pid, 0);
  {
    ProcessGroupRecord record(root_ / "groups");
    ASSERT_TRUE(record.add(pid, 9));
  }  // the daemon that recorded it is gone
  ProcessGroupRecord next(root_ / "groups");
  const auto killed = next.kill_left_over();
  ASSERT_EQ(killed.size(), 1u);
  EXPECT_EQ(killed[0].group, pid);
  EXPECT_EQ(killed[0].run_id, 9);
  EXPECT_EQ(end_signal(pid), SIGKILL);
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "groups"));
  EXPECT_TRUE(next.kill_left_over().empty());
}

TEST_F(ProcessGroupRecordTest, AReusedPidIsLeftAlone) {
  const pid_t pid = sleeper();
  ASSERT_GT(pid, 0);
  const ProcessFacts facts = process_facts(pid);
  ASSERT_TRUE(facts.start_time);
  ASSERT_TRUE(facts.group_alive);
  std::filesystem::create_directories(root_ / "groups");
  // A record of an earlier process that had this pid: another start time.
  std::ofstream(root_ / "groups" / std::to_string(pid))
      << format_record(GroupRecord{pid, facts.boot_id, *facts.start_time + 1, 3});
  ProcessGroupRecord next(root_ / "groups");
  EXPECT_TRUE(next.kill_left_over().empty());
  EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), 0) << "the unrelated process still runs";
  ::kill(-pid, SIGKILL);
  EXPECT_EQ(end_signal(pid), SIGKILL);
}

TEST_F(ProcessGroupRecordTest, ACommandIsRecordedOnlyWhileItRuns) {
  ProcessGroupRecord record(root_ / "groups");
  CommandSpec spec;
  spec.executable = "sh";
  // Lists the record directory from inside the step: its own group is there.
  spec.arguments = {"-c", "ls " + (root_ / "groups").string()};
  spec.cwd = "/";
  const SystemClock clock;
  auto result = run_command(spec, clock, {}, &record, 5);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->output, std::to_string(result->pid) + "\n");
  EXPECT_TRUE(std::filesystem::is_empty(root_ / "groups"));
}

}  // namespace
}  // namespace companyos::automation
