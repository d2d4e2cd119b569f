#include "automation/child_environment.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace companyos::automation {
namespace {

using Strings = std::vector<std::string>;
using Entries = std::map<std::string, std::string>;

TEST(ChildEnvironment, SetsEntriesOnTopOfTheInheritedOnes) {
  struct Case {
    std::string_view what;
    Strings inherited;
    Entries extra;
    Strings expected;
  };
  const Case cases[] = {
      {"nothing added", {"A=1", "B=2"}, {}, {"A=1", "B=2"}},
      {"a new entry is appended", {"A=1"}, {{"C", "3"}}, {"A=1", "C=3"}},
      {"an entry replaces the inherited one", {"A=1", "B=2"}, {{"A", "9"}}, {"B=2", "A=9"}},
      {"a name that only prefixes another replaces nothing",
       {"AB=1"},
       {{"A", "2"}},
       {"AB=1", "A=2"}},
      {"an empty value is a value", {"A=1"}, {{"A", ""}}, {"A="}},
      {"values keep shell characters",
       {},
       {{"Q", "a b;$c 'd' \"e\" `f`"}},
       {"Q=a b;$c 'd' \"e\" `f`"}},
      {"a value may hold '='", {}, {{"X", "a=b"}}, {"X=a=b"}},
      {"underscores and digits in names", {}, {{"_A1", "x"}}, {"_A1=x"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    auto environment = child_environment(c.inherited, c.extra);
    ASSERT_TRUE(environment.ok()) << environment.error().message;
    EXPECT_EQ(*environment, c.expected);
  }
}

TEST(ChildEnvironment, RefusesBadEntriesWithoutEchoingTheirValue) {
  struct Case {
    std::string_view what;
    std::string name;
    std::string value;
  };
  const Case cases[] = {
      {"empty name", "", "SECRETVALUE"},
      {"name starts with a digit", "1A", "SECRETVALUE"},
      {"name with '='", "A=B", "SECRETVALUE"},
      {"name with a dash", "A-B", "SECRETVALUE"},
      {"name with a space", "A B", "SECRETVALUE"},
      {"NUL in the name", std::string("A\0B", 3), "SECRETVALUE"},
      {"NUL in the value", "A", std::string("SECRET\0VALUE", 12)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    auto environment = child_environment(Strings{"PATH=/usr/bin"}, Entries{{c.name, c.value}});
    ASSERT_FALSE(environment.ok());
    EXPECT_EQ(environment.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(environment.error().details.at("name"), c.name);
    EXPECT_EQ(environment.error().message.find("SECRET"), std::string::npos)
        << environment.error().message;
  }
}

TEST(ChildEnvironment, ReadsValuesByExactName) {
  const Strings environment{"PATHX=no", "PATH=/bin:/usr/bin", "EMPTY="};
  EXPECT_EQ(environment_value(environment, "PATH"), "/bin:/usr/bin");
  EXPECT_EQ(environment_value(environment, "EMPTY"), "");
  EXPECT_EQ(environment_value(environment, "PAT"), std::nullopt);
  EXPECT_EQ(environment_value(environment, "MISSING"), std::nullopt);
}

TEST(ChildEnvironment, DaemonEnvironmentIsTheProcessEnvironment) {
  ASSERT_EQ(::setenv("COMPANYOS_CHILD_ENV_PROBE", "seen", 1), 0);
  const Strings environment = daemon_environment();
  EXPECT_EQ(environment_value(environment, "COMPANYOS_CHILD_ENV_PROBE"), "seen");
  ::unsetenv("COMPANYOS_CHILD_ENV_PROBE");
}

}  // namespace
}  // namespace companyos::automation
