// The bridge against the stand-in agent-desktop program (tests/fixtures/standin), which
// logs each call and behaves as the COMPANYOS_STANDIN_* variables ask.
#include "launch/agent_desktop_bridge.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "temp_dir.h"

namespace companyos::launch {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

const fs::path kStandin = fs::path(COMPANYOS_STANDIN_DIR) / "agent_desktop_standin.sh";

// Sets the stand-in's variables for one test and removes them afterwards.
class StandinEnvironment {
 public:
  explicit StandinEnvironment(const std::map<std::string, std::string>& variables) {
    for (const auto& [name, value] : variables) {
      ::setenv(name.c_str(), value.c_str(), 1);
      names_.push_back(name);
    }
  }
  ~StandinEnvironment() {
    for (const std::string& name : names_) ::unsetenv(name.c_str());
  }
  StandinEnvironment(const StandinEnvironment&) = delete;
  StandinEnvironment& operator=(const StandinEnvironment&) = delete;

 private:
  std::vector<std::string> names_;
};

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto state_at = line.rfind(')');
  return state_at == std::string::npos || line.at(state_at + 2) == 'Z';
}

bool wait_until_gone(pid_t pid, milliseconds deadline) {
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (!process_gone(pid)) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

class Bridge : public ::testing::Test {
 protected:
  fs::path calls() const { return dir_.path() / "calls"; }
  std::map<std::string, std::string> variables(std::map<std::string, std::string> more = {}) const {
    more["COMPANYOS_STANDIN_CALLS"] = calls().string();
    return more;
  }
  BridgeOptions options(milliseconds timeout = milliseconds(5000)) const {
    return {kStandin, timeout, kDefaultOutputCap};
  }
  companyos::testing::TempDir dir_;
};

TEST_F(Bridge, FocusesWhenExactlyOneWindowIsListed) {
  StandinEnvironment env(variables({{"COMPANYOS_STANDIN_WINDOWS", "1"}}));
  auto focused = focus_via_bridge(options(), "mousepad");
  ASSERT_TRUE(focused.ok()) << focused.error().message;
  EXPECT_EQ(focused->windows, 1u);
  ASSERT_EQ(focused->calls.size(), 2u);
  EXPECT_EQ(focused->calls[0].step, "list-windows");
  EXPECT_EQ(focused->calls[0].exit_status, 0);
  EXPECT_EQ(focused->calls[1].step, "focus-window");
  EXPECT_EQ(focused->calls[1].exit_status, 0);
  EXPECT_EQ(lines_of(calls()), (std::vector<std::string>{"list-windows --app mousepad",
                                                         "focus-window --app mousepad"}));
}

TEST_F(Bridge, BlocksWithoutFocusingUnlessExactlyOneWindow) {
  struct Case {
    std::string windows;
    std::string reason;
    ErrorCode code;
  };
  const Case cases[] = {
      {"2", "ambiguous", ErrorCode::kAmbiguousTarget},
      {"5", "ambiguous", ErrorCode::kAmbiguousTarget},
      {"0", "no_window", ErrorCode::kWindowNotFound},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.windows + " windows");
    fs::remove(calls());
    StandinEnvironment env(variables({{"COMPANYOS_STANDIN_WINDOWS", c.windows}}));
    auto focused = focus_via_bridge(options(), "mousepad");
    ASSERT_FALSE(focused.ok());
    EXPECT_EQ(focused.error().code, c.code);
    EXPECT_EQ(focused.error().details.at("reason"), c.reason);
    EXPECT_EQ(focused.error().details.at("windows"), std::stoi(c.windows));
    EXPECT_EQ(focused.error().details.at("delivery"), "not_delivered");
    EXPECT_EQ(lines_of(calls()), (std::vector<std::string>{"list-windows --app mousepad"}));
  }
}

TEST_F(Bridge, FailsWhenACallExitsNonZero) {
  struct Case {
    std::string step;
    std::size_t calls;
    Retry retry;
  };
  const Case cases[] = {
      {"list-windows", 1, Retry::kSafe},
      {"focus-window", 2, Retry::kUnsafe},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.step);
    fs::remove(calls());
    StandinEnvironment env(variables({{"COMPANYOS_STANDIN_FAIL_STEP", c.step}}));
    auto focused = focus_via_bridge(options(), "mousepad");
    ASSERT_FALSE(focused.ok());
    const Error& error = focused.error();
    EXPECT_EQ(error.code, ErrorCode::kInternal);
    EXPECT_EQ(error.details.at("reason"), "bridge_failed");
    EXPECT_EQ(error.details.at("step"), c.step);
    EXPECT_EQ(error.details.at("calls").size(), c.calls);
    EXPECT_EQ(error.details.at("calls").back().at("exit_status"), 1);
    EXPECT_EQ(error.retry, c.retry);
    EXPECT_EQ(lines_of(calls()).size(), c.calls);
    // Only step, exit status and duration are kept: no output of the program.
    EXPECT_EQ(error.details.at("calls").back().size(), 4u);
    EXPECT_EQ(error.message.find("fails on request"), std::string::npos);
  }
}

TEST_F(Bridge, KillsAHangingCallWithItsGroupAtTheDeadline) {
  for (const std::string step : {"list-windows", "focus-window"}) {
    SCOPED_TRACE(step);
    fs::remove(calls());
    StandinEnvironment env(variables({{"COMPANYOS_STANDIN_HANG_STEP", step}}));
    const auto started = std::chrono::steady_clock::now();
    auto focused = focus_via_bridge(options(milliseconds(500)), "mousepad");
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_FALSE(focused.ok());
    EXPECT_EQ(focused.error().code, ErrorCode::kTimeout);
    EXPECT_EQ(focused.error().details.at("reason"), "bridge_timeout");
    EXPECT_EQ(focused.error().details.at("calls").back().at("timed_out"), true);
    EXPECT_GE(took, milliseconds(500));
    EXPECT_LT(took, milliseconds(4000));
    pid_t sleeper = 0;
    std::ifstream(calls().string() + ".sleeper") >> sleeper;
    ASSERT_GT(sleeper, 0);
    EXPECT_TRUE(wait_until_gone(sleeper, milliseconds(5000)));
  }
}

TEST_F(Bridge, WaitsTenSecondsByDefault) {
  EXPECT_EQ(BridgeOptions{}.call_timeout, milliseconds(10'000));
  EXPECT_EQ(BridgeOptions{}.output_cap, 64u * 1024u);
  StandinEnvironment env(variables({{"COMPANYOS_STANDIN_HANG_STEP", "list-windows"}}));
  BridgeOptions defaults;
  defaults.program = kStandin;
  const auto started = std::chrono::steady_clock::now();
  auto focused = focus_via_bridge(defaults, "mousepad");
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(focused.ok());
  EXPECT_EQ(focused.error().details.at("reason"), "bridge_timeout");
  EXPECT_GE(took, milliseconds(10'000));
  EXPECT_LT(took, milliseconds(13'000));
}

TEST_F(Bridge, RefusesABadNameBeforeAnyCall) {
  StandinEnvironment env(variables());
  for (const std::string name : {"", "-rf", "two words", "a;reboot", "$(id)", "../../x"}) {
    SCOPED_TRACE(name);
    auto focused = focus_via_bridge(options(), name);
    ASSERT_FALSE(focused.ok());
    EXPECT_EQ(focused.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(focused.error().details.at("reason"), "invalid_app_name");
    EXPECT_FALSE(fs::exists(calls())) << "the program was called";
  }
}

TEST_F(Bridge, RefusesAProgramThatIsNotAnExistingFile) {
  StandinEnvironment env(variables());
  const fs::path not_executable = dir_.path() / "plain-file";
  std::ofstream(not_executable) << "#!/bin/sh\n";
  ::chmod(not_executable.c_str(), 0644);
  struct Case {
    fs::path program;
    std::string why;
  };
  const Case cases[] = {
      {"", "no program is configured"},
      {"agent-desktop", "not absolute"},
      {dir_.path() / "missing", "no file exists"},
      {dir_.path(), "not a regular file"},
      {not_executable, "not executable"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.program.string());
    BridgeOptions bad = options();
    bad.program = c.program;
    auto focused = focus_via_bridge(bad, "mousepad");
    ASSERT_FALSE(focused.ok());
    EXPECT_EQ(focused.error().details.at("reason"), "bridge_unavailable");
    EXPECT_NE(focused.error().message.find(c.why), std::string::npos) << focused.error().message;
    EXPECT_EQ(focused.error().retry, Retry::kSafe);
    EXPECT_FALSE(check_bridge_program(c.program).ok());
  }
  EXPECT_TRUE(check_bridge_program(kStandin).ok());
  EXPECT_FALSE(fs::exists(calls()));
}

TEST_F(Bridge, FailsSafelyWhenTheProgramCannotStart) {
  struct Case {
    std::string name;
    std::string text;
    int error_number;
  };
  const Case cases[] = {
      {"no-interpreter-line", "echo one window\n", ENOEXEC},
      {"missing-interpreter", "#!/nonexistent/interpreter\necho one window\n", ENOENT},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path program = dir_.path() / c.name;
    std::ofstream(program) << c.text;
    ::chmod(program.c_str(), 0755);
    ASSERT_TRUE(check_bridge_program(program).ok());
    BridgeOptions bad = options();
    bad.program = program;
    auto focused = focus_via_bridge(bad, "mousepad");
    ASSERT_FALSE(focused.ok());
    const Error& error = focused.error();
    EXPECT_EQ(error.code, ErrorCode::kInternal);
    EXPECT_EQ(error.details.at("reason"), "bridge_failed");
    EXPECT_EQ(error.details.at("step"), "list-windows");
    EXPECT_EQ(error.details.at("delivery"), "not_delivered");
    EXPECT_EQ(error.details.at("errno"), c.error_number);
    EXPECT_TRUE(error.details.at("calls").empty());
    EXPECT_EQ(error.retry, Retry::kSafe);
    EXPECT_NE(error.message.find(std::strerror(c.error_number)), std::string::npos)
        << error.message;
  }
}

TEST(CountListedWindows, CountsNonBlankLines) {
  struct Case {
    std::string output;
    std::size_t windows;
  };
  const Case cases[] = {
      {"", 0},           {"\n\n", 0},         {"  \t\n", 0},
      {"0x1 editor", 1}, {"0x1 editor\n", 1}, {"0x1 editor\n\n0x2 editor\n", 2},
      {"a\r\nb\r\n", 2}, {"  indented\n", 1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(count_listed_windows(c.output), c.windows) << c.output;
  }
}

}  // namespace
}  // namespace companyos::launch
