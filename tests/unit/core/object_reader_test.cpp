#include "core/object_reader.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace companyos {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 4> kFields = {"name", "count", "loud", "note"};

// Reads {name (required string), count (0..10, default 3), loud (default false), note} the
// way a params or definition reader would, and returns every problem it found.
std::vector<Problem> problems_of(const json& object) {
  Problems problems(10);
  ObjectReader reader(object, "step", problems);
  reader.allow_only(kFields, "a step");
  (void)reader.required_string("name", 8);
  (void)reader.integer("count", 0, 10, 3);
  (void)reader.boolean("loud", false);
  (void)reader.optional_string("note");
  return problems.list();
}

TEST(ObjectReader, ReportsEveryProblemWhereItIs) {
  struct Case {
    const char* what;
    json object;
    std::vector<Problem> expected;
  };
  const std::string big(kMaxFieldBytes + 1, 'x');
  const Case cases[] = {
      {"all good", {{"name", "a"}, {"count", 10}, {"loud", true}, {"note", "n"}}, {}},
      {"only the required member", {{"name", "a"}}, {}},
      {"missing required", json::object(), {{"step.name", "required"}}},
      {"unknown member", {{"name", "a"}, {"colour", 1}},
       {{"step.colour", "unknown field (a step has: name, count, loud, note)"}}},
      {"a member that is no identifier", {{"name", "a"}, {"my key", 1}},
       {{"step[\"my key\"]", "unknown field (a step has: name, count, loud, note)"}}},
      {"wrong string type", {{"name", 5}}, {{"step.name", "must be a string, not a number"}}},
      {"string over its bound", {{"name", "123456789"}}, {{"step.name", "must be at most 8 bytes, got 9"}}},
      {"string over the default bound", {{"name", "a"}, {"note", big}},
       {{"step.note", "must be at most 65536 bytes, got 65537"}}},
      {"invalid UTF-8", {{"name", std::string("\xff")}}, {{"step.name", "must be valid UTF-8"}}},
      {"NUL", {{"name", std::string("a\0b", 3)}}, {{"step.name", "must not contain NUL characters"}}},
      {"integer below", {{"name", "a"}, {"count", -1}}, {{"step.count", "must be from 0 to 10, got -1"}}},
      {"integer above", {{"name", "a"}, {"count", 11}}, {{"step.count", "must be from 0 to 10, got 11"}}},
      {"huge unsigned", {{"name", "a"}, {"count", 18446744073709551615ULL}},
       {{"step.count", "must be from 0 to 10, got 18446744073709551615"}}},
      {"fraction", {{"name", "a"}, {"count", 1.5}}, {{"step.count", "must be a whole number from 0 to 10, got 1.5"}}},
      {"text for a number", {{"name", "a"}, {"count", "1"}},
       {{"step.count", "must be a whole number from 0 to 10, not a string"}}},
      {"number for a boolean", {{"name", "a"}, {"loud", 1}}, {{"step.loud", "must be true or false, not a number"}}},
      {"everything wrong at once", {{"x", 1}, {"count", "1"}, {"loud", nullptr}},
       {{"step.x", "unknown field (a step has: name, count, loud, note)"},
        {"step.name", "required"},
        {"step.count", "must be a whole number from 0 to 10, not a string"},
        {"step.loud", "must be true or false, not null"}}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(problems_of(c.object), c.expected) << c.what;
  }
}

TEST(ObjectReader, GivesTheValueOrTheFallback) {
  Problems problems(10);
  const json object = {{"name", "a"}, {"count", 7}};
  ObjectReader reader(object, "", problems);
  EXPECT_EQ(reader.required_string("name"), "a");
  EXPECT_EQ(reader.integer("count", 0, 10, 3), 7);
  EXPECT_EQ(reader.integer("absent", 0, 10, 3), 3);
  EXPECT_TRUE(reader.boolean("absent", true));
  EXPECT_EQ(reader.optional_string("absent"), std::nullopt);
  EXPECT_EQ(reader.path_of("count"), "count");
  EXPECT_EQ(problems.count(), 0U);
}

TEST(Problems, CountsEveryProblemAndKeepsTheFirstFew) {
  Problems problems(2);
  for (int i = 0; i < 5; ++i) problems.add(index_path("steps", static_cast<std::size_t>(i)), "bad");
  EXPECT_EQ(problems.count(), 5U);
  ASSERT_EQ(problems.list().size(), 2U);
  EXPECT_EQ(problems.list()[1].path, "steps[1]");
  EXPECT_TRUE(problems.check("x", std::nullopt));
  EXPECT_FALSE(problems.check("x", "wrong"));
  EXPECT_EQ(problems.count(), 6U);
  EXPECT_EQ(to_string(Problem{"steps[1]", "bad"}), "steps[1]: bad");
  EXPECT_EQ(to_string(Problem{"", "too many"}), "too many");
  EXPECT_EQ(to_json(Problem{"a", "b"}), (json{{"path", "a"}, {"message", "b"}}));
}

}  // namespace
}  // namespace companyos
