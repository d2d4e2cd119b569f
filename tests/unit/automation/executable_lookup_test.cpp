#include "automation/executable_lookup.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "temp_dir.h"

namespace companyos::automation {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, fs::perms permissions) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/sh\n";
  fs::permissions(path, permissions);
}

constexpr auto kExecutable = fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read;
constexpr auto kPlain = fs::perms::owner_read | fs::perms::owner_write;

class ExecutableLookup : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir("plain") / "tool", kPlain);
    write_file(dir("exec") / "tool", kExecutable);
    fs::create_directories(dir("subdir") / "tool");  // a directory named like the program
  }
  fs::path dir(const std::string& name) const { return temp_.path() / name; }
  std::string path_of(std::initializer_list<std::string> names) const {
    std::string joined;
    for (const std::string& name : names) {
      if (!joined.empty()) joined += ':';
      joined += name;
    }
    return joined;
  }

  testing::TempDir temp_;
};

TEST_F(ExecutableLookup, FindsTheProgramOrSaysWhyNot) {
  const std::string plain = dir("plain").string();
  const std::string exec = dir("exec").string();
  const std::string subdir = dir("subdir").string();
  const std::string relative_exec = fs::relative(dir("exec"), fs::current_path()).string();
  struct Case {
    std::string what;
    std::string program;
    std::string search_path;
    std::optional<std::string> found;
    ErrorCode code = ErrorCode::kInternal;
  };
  const Case cases[] = {
      {"absolute path", exec + "/tool", "", exec + "/tool"},
      {"absolute path, PATH not consulted", "/bin/sh", plain, "/bin/sh"},
      {"bare name in PATH", "tool", exec, exec + "/tool"},
      {"first executable match wins", "tool", path_of({plain, subdir, exec}), exec + "/tool"},
      {"empty PATH entries are skipped", "tool", "::" + exec + ":", exec + "/tool"},
      {"a trailing slash in PATH", "tool", exec + "/", exec + "/tool"},
      {"absolute path missing", exec + "/missing", "", std::nullopt, ErrorCode::kNotFound},
      {"absolute path is a directory", subdir + "/tool", "", std::nullopt, ErrorCode::kNotFound},
      {"absolute path not executable", plain + "/tool", "", std::nullopt, ErrorCode::kPermDenied},
      {"bare name not in PATH", "companyos-no-such-program", exec, std::nullopt,
       ErrorCode::kNotFound},
      {"bare name only found not executable", "tool", path_of({plain, subdir}), std::nullopt,
       ErrorCode::kPermDenied},
      {"empty PATH", "tool", "", std::nullopt, ErrorCode::kNotFound},
      {"relative PATH entries are skipped", "tool", relative_exec, std::nullopt,
       ErrorCode::kNotFound},
      {"relative path with ./", "./tool", exec, std::nullopt, ErrorCode::kInvalidArgs},
      {"relative path with a directory", "exec/tool", exec, std::nullopt, ErrorCode::kInvalidArgs},
      {"empty program", "", exec, std::nullopt, ErrorCode::kInvalidArgs},
      {"NUL in the program", std::string("to\0ol", 5), exec, std::nullopt, ErrorCode::kInvalidArgs},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto resolved = resolve_executable(c.program, c.search_path);
    if (c.found) {
      ASSERT_TRUE(resolved.ok()) << resolved.error().message;
      EXPECT_EQ(*resolved, *c.found);
    } else {
      ASSERT_FALSE(resolved.ok()) << *resolved;
      EXPECT_EQ(resolved.error().code, c.code) << resolved.error().message;
      EXPECT_FALSE(resolved.error().message.empty());
    }
  }
}

TEST(SearchPath, ComesFromTheEnvironmentOrTheSystemDefault) {
  const std::vector<std::string> with_path{"HOME=/root", "PATH=/opt/x:/usr/bin"};
  EXPECT_EQ(search_path_of(with_path), "/opt/x:/usr/bin");
  const std::vector<std::string> empty_path{"PATH="};
  EXPECT_EQ(search_path_of(empty_path), "");
  const std::string fallback = search_path_of(std::vector<std::string>{"HOME=/root"});
  EXPECT_NE(fallback.find("/bin"), std::string::npos) << fallback;
  EXPECT_EQ(fallback.find('\0'), std::string::npos);
}

}  // namespace
}  // namespace companyos::automation
