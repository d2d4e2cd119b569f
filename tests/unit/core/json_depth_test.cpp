#include "core/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos {
namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonNestingDepth, CountsOnlyBracketsOutsideStrings) {
  struct Case {
    const char* label;
    std::string text;
    std::size_t depth;
  };
  const Case cases[] = {
      {"empty", "", 0},
      {"scalar", "42", 0},
      {"string", R"("a")", 0},
      {"empty array", "[]", 1},
      {"empty object", "{}", 1},
      {"object in array", R"([{"a":1}])", 2},
      {"siblings do not add up", "[[],[],{}]", 2},
      {"a request", R"({"id":1,"method":"settings.set","params":{"key":"k","value":[[1]]}})", 4},
      {"brackets in a string", R"({"a":"[[[[{{{{"})", 1},
      {"closers in a string", R"([["]]]]"]])", 2},
      {"escaped quote keeps the string open", R"(["\"[[[["])", 1},
      {"escaped backslash ends before the quote", R"(["\\",[[]]])", 3},
      {"unicode escape", R"(["\u005b\u007b",[]])", 2},
      {"key with brackets", R"({"[{":{"}]":[]}})", 3},
      {"exactly 128", nested(128), 128},
      {"129", nested(129), 129},
      {"128 objects and arrays mixed", std::string(64, '[') + std::string(64, '{') + "}", 128},
      {"unbalanced: only openers", nested(5).substr(0, 5), 5},
      {"unbalanced: stray closers first", "]]]}}[[", 2},
      {"unterminated string hides the rest", R"([" [[[[)", 1},
      {"100,000 deep", nested(100000), 100000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(json_nesting_depth(c.text), c.depth);
  }
}

}  // namespace
}  // namespace companyos
