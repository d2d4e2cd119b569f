#include "automation/file_check.h"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.h"

namespace companyos::automation {
namespace {

constexpr const char* kEmptySha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr const char* kHelloSha256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

TEST(Sha256, MatchesKnownDigests) {
  EXPECT_EQ(sha256_hex(""), kEmptySha256);
  EXPECT_EQ(sha256_hex("hello"), kHelloSha256);
}

struct ContentCase {
  const char* label;
  std::string content;
  FileExpectation expectation;
  std::string expected;
  bool holds;
};

TEST(JudgeContent, EveryExpectationHoldsOrNot) {
  const std::vector<ContentCase> cases = {
      {"equal bytes", "hello", FileExpectation::kEquals, "hello", true},
      {"trailing newline differs", "hello\n", FileExpectation::kEquals, "hello", false},
      {"empty equals empty", "", FileExpectation::kEquals, "", true},
      {"substring", "say hello world", FileExpectation::kContains, "hello", true},
      {"case matters", "say Hello", FileExpectation::kContains, "hello", false},
      {"NUL bytes compared", std::string("a\0b", 3), FileExpectation::kContains, std::string("\0b", 2), true},
      {"sha256 of hello", "hello", FileExpectation::kSha256, kHelloSha256, true},
      {"sha256 of other", "hullo", FileExpectation::kSha256, kHelloSha256, false},
      {"upper-case digest never matches", "hello", FileExpectation::kSha256,
       "2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824", false},
  };
  for (const auto& c : cases) {
    const FileVerdict verdict = judge_content(c.content, FileCheck{"/x", c.expectation, c.expected});
    EXPECT_EQ(verdict.holds, c.holds) << c.label;
    EXPECT_FALSE(verdict.reason.empty()) << c.label;
  }
}

TEST(JudgeContent, TheReasonNeverQuotesTheContent) {
  const FileVerdict verdict = judge_content("secret-token-123", FileCheck{"/x", FileExpectation::kEquals, "other"});
  EXPECT_FALSE(verdict.holds);
  EXPECT_EQ(verdict.reason.find("secret-token-123"), std::string::npos);
  EXPECT_EQ(verdict.reason.find("other"), std::string::npos);
}

TEST(JudgeFile, MissingDirectoryAndPresentFiles) {
  testing::TempDir dir;
  const FileVerdict missing = judge_file(FileCheck{dir.file("absent"), FileExpectation::kEquals, ""});
  EXPECT_FALSE(missing.holds);
  EXPECT_NE(missing.reason.find("no file at"), std::string::npos);

  const FileVerdict directory = judge_file(FileCheck{dir.path().string(), FileExpectation::kEquals, ""});
  EXPECT_FALSE(directory.holds);
  EXPECT_NE(directory.reason.find("not a regular file"), std::string::npos);

  std::ofstream(dir.file("note")) << "hello";
  EXPECT_TRUE(judge_file(FileCheck{dir.file("note"), FileExpectation::kEquals, "hello"}).holds);
  EXPECT_TRUE(judge_file(FileCheck{dir.file("note"), FileExpectation::kSha256, kHelloSha256}).holds);
  EXPECT_FALSE(judge_file(FileCheck{dir.file("note"), FileExpectation::kContains, "bye"}).holds);
}

}  // namespace
}  // namespace companyos::automation
