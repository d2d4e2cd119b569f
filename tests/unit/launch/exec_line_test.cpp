#include "launch/exec_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace companyos::launch {
namespace {

// Literal text as is, field codes as {%x}.
std::vector<std::string> render(const ExecLine& line) {
  std::vector<std::string> out;
  for (const ExecArgument& argument : line.arguments) {
    std::string text;
    for (const auto& part : argument.parts) {
      if (const auto* piece = std::get_if<std::string>(&part)) {
        text += *piece;
      } else {
        text += "{" + std::string(to_string(std::get<FieldCode>(part))) + "}";
      }
    }
    out.push_back(text);
  }
  return out;
}

TEST(ParseExec, SplitsArgumentsByTheSpecificationsQuotingRules) {
  struct Case {
    std::string_view name;
    std::string exec;  // after the key file's escapes are undone
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"plain", "viewer %f", {"viewer", "{%f}"}},
      {"several spaces", "viewer   --new  %U", {"viewer", "--new", "{%U}"}},
      {"absolute program", "/opt/app/bin/app --flag=1", {"/opt/app/bin/app", "--flag=1"}},
      {"quoted space", "\"/opt/My App/app\" %u", {"/opt/My App/app", "{%u}"}},
      {"escaped quote", R"(app "say \"hi\"")", {"app", "say \"hi\""}},
      {"escaped backtick dollar backslash", R"(app "\` \$ \\")", {"app", "` $ \\"}},
      {"reserved characters inside quotes",
       R"(app "a;b&c|d<e>f*g?h#i(j)k~l'm")",
       {"app", "a;b&c|d<e>f*g?h#i(j)k~l'm"}},
      {"empty quoted argument", R"(app "" %f)", {"app", "", "{%f}"}},
      {"percent escape", "app 100%%", {"app", "100%"}},
      {"field code inside an argument", "app --file=%f", {"app", "--file={%f}"}},
      {"icon name location", "app %i %c %k", {"app", "{%i}", "{%c}", "{%k}"}},
      {"deprecated codes vanish", "app %d %D %n %N %v %m %u", {"app", "{%u}"}},
      {"deprecated code inside an argument", "app --x=%d", {"app", "--x="}},
      {"trailing spaces", "app %F   ", {"app", "{%F}"}},
      {"non-ASCII", "app --titel=Größe", {"app", "--titel=Größe"}},
      {"equals sign", "env FOO=bar app", {"env", "FOO=bar", "app"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name));
    auto parsed = parse_exec(c.exec);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(render(*parsed), c.expected);
  }
}

TEST(ParseExec, RejectsWhatTheSpecificationForbids) {
  struct Case {
    std::string exec;
    std::string message_part;
  };
  const Case cases[] = {
      {"", "empty"},
      {"    ", "empty"},
      {"%f", "field code"},
      {"\"\" %f", "program of Exec is empty"},
      {"app \"unterminated", "unterminated"},
      {"app \"a\"b", "whole argument"},
      {"app a\"b\"", "whole argument"},
      {"app 'single quoted'", "reserved character '''"},
      {"app a;b", "reserved character ';'"},
      {"app $HOME", "reserved character '$'"},
      {"app a|b", "reserved character '|'"},
      {"app a>b", "reserved character '>'"},
      {"app ~/file", "reserved character '~'"},
      {"app *.txt", "reserved character '*'"},
      {"app a\\ b", "reserved character '\\'"},
      {"app\t%f", "reserved character '\t'"},
      {"app `id`", "reserved character '`'"},
      {"app \"$HOME\"", "must be escaped"},
      {"app \"`id`\"", "must be escaped"},
      {"app \"\\n\"", "backslash"},
      {"app \"%f\"", "inside a quoted argument"},
      {"app %x", "unknown field code %x"},
      {"app %", "at the end"},
      {"app --files=%F", "%F must be an argument on its own"},
      {"app x%U", "%U must be an argument on its own"},
      {"app --icon %ix", "%i must be an argument on its own"},
      {"app %f %u", "only one of"},
      {"app %F %U", "only one of"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.exec);
    auto parsed = parse_exec(c.exec);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs);
    EXPECT_NE(parsed.error().message.find(c.message_part), std::string::npos)
        << parsed.error().message;
  }
}

TEST(ParseExec, ReportsWhereTheProblemIs) {
  auto parsed = parse_exec("app ok a;b");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().details.at("position"), 8);
}

TEST(ExecLine, TellsWhichTargetsTheProgramTakes) {
  struct Case {
    std::string exec;
    bool urls;
    bool files;
  };
  const Case cases[] = {
      {"app", false, false},     {"app %f", false, true},      {"app %F", false, true},
      {"app %u", true, true},    {"app %U", true, true},       {"app %i %c %k", false, false},
      {"app %%u", false, false}, {"app --url=%u", true, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.exec);
    auto parsed = parse_exec(c.exec);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->takes_urls(), c.urls);
    EXPECT_EQ(parsed->takes_files(), c.files);
  }
}

TEST(ExecArgument, IsLiteralOnlyWithoutFieldCodes) {
  auto parsed = parse_exec("app plain --x=%f");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->arguments[1].literal(), "plain");
  EXPECT_EQ(parsed->arguments[2].literal(), std::nullopt);
}

}  // namespace
}  // namespace companyos::launch
