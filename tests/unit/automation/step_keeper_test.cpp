#include "automation/step_keeper.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace companyos::automation {
namespace {

TEST(KeeperArguments, AreReadInTheOneFormTheDaemonWrites) {
  const auto parsed = parse_keeper_arguments({"--parent", "42", "--", "/bin/sh", "sh", "-c", "x y"});
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->parent, 42);
  EXPECT_EQ(parsed->program, "/bin/sh");
  EXPECT_EQ(parsed->argv, (std::vector<std::string>{"sh", "-c", "x y"}));

  KeeperArguments arguments{7, "/usr/bin/env", {"env", "--", "-x"}};
  const auto line = keeper_command_line("/k/companyos-step-keeper", arguments);
  EXPECT_EQ(line, (std::vector<std::string>{"/k/companyos-step-keeper", "--parent", "7", "--", "/usr/bin/env",
                                            "env", "--", "-x"}));
  const std::vector<std::string_view> words(line.begin() + 1, line.end());
  const auto again = parse_keeper_arguments(words);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->parent, 7);
  EXPECT_EQ(again->program, "/usr/bin/env");
  EXPECT_EQ(again->argv, arguments.argv);
}

TEST(KeeperArguments, AnythingElseIsRefused) {
  const std::vector<std::vector<std::string_view>> bad = {
      {},
      {"--parent"},
      {"--parent", "0", "--", "/bin/sh", "sh"},
      {"--parent", "-3", "--", "/bin/sh", "sh"},
      {"--parent", "12x", "--", "/bin/sh", "sh"},
      {"--parent", "99999999999999", "--", "/bin/sh", "sh"},
      {"--parent", "12", "/bin/sh", "sh"},
      {"--parent", "12", "--"},
      {"--parent", "12", "--", "sh", "sh"},
      {"--parent", "12", "--", "", "sh"},
      {"--parent", "12", "--", "/bin/sh"},
      {"/bin/sh", "sh"},
  };
  for (const auto& words : bad) {
    const auto parsed = parse_keeper_arguments(words);
    std::string shown;
    for (const auto word : words) shown += std::string(word) + " ";
    ASSERT_FALSE(parsed) << shown;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs) << shown;
    EXPECT_NE(parsed.error().suggestion.find("usage:"), std::string::npos) << shown;
  }
}

TEST(ParentInStat, ReadsTheFieldAfterTheLastParenthesis) {
  struct Case {
    std::string_view line;
    std::optional<pid_t> parent;
  };
  const std::vector<Case> cases = {
      {"1234 (sleep) S 99 1234 1234 0 -1", 99},
      {"1234 (a b) c) R 7 1 1 0", 7},  // a name with a space and a parenthesis
      {"1234 ((sd-pam)) S 1 1 1", 1},
      {"1 (init) S 0 1 1", 0},
      {"1234 (x) Z 55", 55},  // the last field
      {"", std::nullopt},
      {"1234 sleep S 99", std::nullopt},
      {"1234 (sleep)S 99", std::nullopt},
      {"1234 (sleep) S", std::nullopt},
      {"1234 (sleep) S x9 1", std::nullopt},
      {"1234 (sleep) S -1 1", std::nullopt},
      {"1234 )sleep( S 9 1", std::nullopt},
  };
  for (const Case& c : cases) EXPECT_EQ(parent_in_stat(c.line), c.parent) << c.line;
}

}  // namespace
}  // namespace companyos::automation
