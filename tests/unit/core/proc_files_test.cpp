#include "core/proc_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/unique_fd.h"

namespace companyos {
namespace {

class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    path_ = std::filesystem::temp_directory_path() / ("proc_files_test." + std::to_string(::getpid()));
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(ReadSmallFile, ReadsWhatIsThereUpToTheLimit) {
  const std::string content(10000, 'x');
  TempFile file(content);
  struct Case {
    std::size_t limit;
    std::size_t expected;
  };
  for (const Case& c : {Case{1 << 20, 10000}, Case{10000, 10000}, Case{4096, 4096}, Case{1, 1}, Case{0, 0}}) {
    const auto read = read_small_file(file.path(), c.limit);
    ASSERT_TRUE(read.has_value()) << c.limit;
    EXPECT_EQ(read->size(), c.expected) << c.limit;
  }
}

TEST(ReadSmallFile, SaysNothingForWhatCannotBeRead) {
  for (const char* path : {"/nonexistent/companyos", "/proc", "/proc/0/stat", ""}) {
    EXPECT_FALSE(read_small_file(path).has_value()) << path;
  }
}

TEST(ReadSmallFile, ReadsOurOwnStat) {
  const auto stat = read_small_file("/proc/" + std::to_string(::getpid()) + "/stat", 4096);
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->rfind(std::to_string(::getpid()) + " (", 0), 0U) << *stat;
}

// The race that aborted the step keeper: a process's /proc file opened while it ran and
// read after it was reaped. read(2) fails (ESRCH); std::ifstream's buffer threw there.
TEST(ReadToEnd, AFileOfAProcessThatEndedIsNothingNotAnException) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  const UniqueFd fd(::open(("/proc/" + std::to_string(child) + "/stat").c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd.valid());
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(read_to_end(fd.get(), 1 << 20).has_value());
}

TEST(ParsePid, TakesAPositiveDecimalNumberAndNothingElse) {
  struct Case {
    const char* text;
    std::optional<pid_t> pid;
  };
  for (const Case& c : {Case{"1", 1}, Case{"4194304", 4194304}, Case{"0", std::nullopt}, Case{"-3", std::nullopt},
                        Case{"", std::nullopt}, Case{"12a", std::nullopt}, Case{" 12", std::nullopt},
                        Case{"self", std::nullopt}, Case{"99999999999999999999", std::nullopt}}) {
    EXPECT_EQ(parse_pid(c.text), c.pid) << c.text;
  }
}

TEST(ListedPids, ListsThisProcessAndNoNonsense) {
  const auto pids = listed_pids();
  EXPECT_NE(std::find(pids.begin(), pids.end(), ::getpid()), pids.end());
  EXPECT_TRUE(std::all_of(pids.begin(), pids.end(), [](pid_t pid) { return pid > 0; }));
}

}  // namespace
}  // namespace companyos
