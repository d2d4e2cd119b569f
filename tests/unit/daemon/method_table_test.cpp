#include "daemon/method_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <set>
#include <string>

#include "daemon/methods/methods.h"

namespace companyos::daemon {
namespace {

using declared::IntRange;
using declared::ParamType;

const MethodDeclaration kEchoDeclaration{
    .name = "echo",
    .summary = "test method",
    .params = {{.name = "text", .type = ParamType::kString, .required = true},
               {.name = "count", .type = ParamType::kInteger},
               {.name = "loud", .type = ParamType::kBoolean},
               {.name = "opts", .type = ParamType::kObject},
               {.name = "list", .type = ParamType::kArray},
               {.name = "anything", .type = ParamType::kAny},
               {.name = "page", .type = ParamType::kInteger, .range = IntRange{1, 10}},
               {.name = "id", .type = ParamType::kInteger, .range = IntRange{1, {}}},
               {.name = "window"},
               {.name = "title", .excludes = "window"},
               {.name = "note", .length = declared::LengthLimit{3, declared::LengthUnit::kCharacters}},
               {.name = "blob", .length = declared::LengthLimit{4, declared::LengthUnit::kBytes}}},
};

const MethodSpec kEcho{
    .decl = kEchoDeclaration,
    .handler = [](const nlohmann::json& params, DaemonContext&, Reply reply) { reply(params); },
};

struct MethodTableCase {
  std::string name;
  nlohmann::json params;
  bool valid;
  friend void PrintTo(const MethodTableCase& c, std::ostream* os) { *os << c.name; }
};

class ParamChecks : public ::testing::TestWithParam<MethodTableCase> {};

TEST_P(ParamChecks, MatchTheSchema) {
  const auto& c = GetParam();
  auto st = declared::check_params(kEchoDeclaration, c.params);
  EXPECT_EQ(st.ok(), c.valid) << c.params.dump();
  if (!st.ok()) {
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgs);
    // One details key names the bad param, whatever the check that refused it.
    EXPECT_TRUE(st.error().details.contains("param")) << st.error().details.dump();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ParamChecks,
    ::testing::Values(
        MethodTableCase{"required_only", {{"text", "a"}}, true},
        MethodTableCase{"all", {{"text", "a"}, {"count", 2}, {"loud", true}, {"opts", nlohmann::json::object()},
                     {"list", nlohmann::json::array()}, {"anything", nullptr}}, true},
        MethodTableCase{"missing_required", nlohmann::json::object(), false},
        MethodTableCase{"wrong_string", {{"text", 1}}, false},
        MethodTableCase{"float_for_integer", {{"text", "a"}, {"count", 1.5}}, false},
        MethodTableCase{"string_for_integer", {{"text", "a"}, {"count", "1"}}, false},
        MethodTableCase{"int_for_bool", {{"text", "a"}, {"loud", 1}}, false},
        MethodTableCase{"array_for_object", {{"text", "a"}, {"opts", nlohmann::json::array()}}, false},
        MethodTableCase{"object_for_array", {{"text", "a"}, {"list", nlohmann::json::object()}}, false},
        MethodTableCase{"unknown", {{"text", "a"}, {"colour", "red"}}, false},
        MethodTableCase{"range_low_edge", {{"text", "a"}, {"page", 1}}, true},
        MethodTableCase{"range_high_edge", {{"text", "a"}, {"page", 10}}, true},
        MethodTableCase{"range_below", {{"text", "a"}, {"page", 0}}, false},
        MethodTableCase{"range_above", {{"text", "a"}, {"page", 11}}, false},
        MethodTableCase{"range_huge_unsigned", {{"text", "a"}, {"page", 18446744073709551615ULL}}, false},
        MethodTableCase{"open_range_ok", {{"text", "a"}, {"id", 9007199254740993LL}}, true},
        MethodTableCase{"open_range_negative", {{"text", "a"}, {"id", -1}}, false},
        MethodTableCase{"one_of_two_exclusive", {{"text", "a"}, {"title", "T"}}, true},
        MethodTableCase{"both_exclusive", {{"text", "a"}, {"window", "w1"}, {"title", "T"}}, false},
        MethodTableCase{"characters_at_the_limit", {{"text", "a"}, {"note", "\xC3\xA9t\xC3\xA9"}}, true},
        MethodTableCase{"characters_past_the_limit", {{"text", "a"}, {"note", "abcd"}}, false},
        MethodTableCase{"bytes_at_the_limit", {{"text", "a"}, {"blob", "\xC3\xA9t\xC3"}}, true},
        MethodTableCase{"bytes_past_the_limit", {{"text", "a"}, {"blob", "\xC3\xA9t\xC3\xA9"}}, false}),
    [](const ::testing::TestParamInfo<MethodTableCase>& info) { return info.param.name; });

TEST(MethodTable, EveryBuiltinMethodIsDeclaredOnceWithAHandler) {
  MethodTable table(methods::all_methods());
  std::set<std::string_view> names;
  for (const MethodSpec* spec : table.methods()) {
    EXPECT_TRUE(names.insert(spec->decl.name).second) << "duplicate " << spec->decl.name;
    EXPECT_NE(spec->handler, nullptr) << spec->decl.name;
    EXPECT_FALSE(spec->decl.summary.empty()) << spec->decl.name;
  }
  for (const char* required : {"ping", "status", "settings.get", "settings.set", "methods"}) {
    EXPECT_NE(table.find(required), nullptr) << required;
  }
}

TEST(MethodTable, DescribeListsParamsAndFlags) {
  MethodTable table({&kEcho, &methods::kSettingsSet});
  auto described = table.describe();
  ASSERT_EQ(described.size(), 2U);
  EXPECT_EQ(described[0]["name"], "echo");
  EXPECT_EQ(described[0]["params"].size(), 12U);
  EXPECT_EQ(described[0]["params"][10]["max_characters"], 3);
  EXPECT_EQ(described[0]["params"][11]["max_bytes"], 4);
  EXPECT_EQ(described[0]["params"][0]["required"], true);
  EXPECT_EQ(described[0]["params"][6]["min"], 1);
  EXPECT_EQ(described[0]["params"][6]["max"], 10);
  EXPECT_FALSE(described[0]["params"][7].contains("max"));
  EXPECT_EQ(described[1]["flags"], nlohmann::json::array({"effectful", "person_only", "dashboard"}));
}

TEST(MethodTable, RangeErrorsSayTheBoundsAndWhatCame) {
  auto low = declared::check_params(kEchoDeclaration, {{"text", "a"}, {"page", 0}});
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.error().message, "page must be from 1 to 10");
  EXPECT_EQ(low.error().details, (nlohmann::json{{"param", "page"}, {"got", 0}}));
  auto id = declared::check_params(kEchoDeclaration, {{"text", "a"}, {"id", 0}});
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.error().message, "id must be a positive integer");
}

TEST(MethodTable, LengthErrorsSayTheLengthAndTheLimit) {
  auto long_note = declared::check_params(kEchoDeclaration, {{"text", "a"}, {"note", "abcde"}});
  ASSERT_FALSE(long_note.ok());
  EXPECT_EQ(long_note.error().message, "note has 5 characters; echo takes at most 3 characters");
  EXPECT_EQ(long_note.error().details["characters"], 5);
  EXPECT_EQ(long_note.error().details["max"], 3);
  auto long_blob = declared::check_params(kEchoDeclaration, {{"text", "a"}, {"blob", "abcde"}});
  ASSERT_FALSE(long_blob.ok());
  EXPECT_EQ(long_blob.error().details["bytes"], 5);
}

TEST(MethodTable, LengthTextsSayCharactersBytesOrMiB) {
  using declared::LengthLimit;
  using declared::LengthUnit;
  EXPECT_EQ(declared::length_text(LengthLimit{10'000, LengthUnit::kCharacters}), "at most 10,000 characters");
  EXPECT_EQ(declared::length_text(LengthLimit{1 << 20, LengthUnit::kBytes}), "at most 1 MiB");
  EXPECT_EQ(declared::length_text(LengthLimit{(1 << 20) + 1, LengthUnit::kBytes}), "at most 1,048,577 bytes");
  EXPECT_EQ(declared::length_text(LengthLimit{500, LengthUnit::kBytes}), "at most 500 bytes");
  EXPECT_EQ(declared::help_text({.name = "t", .help = "UTF-8 text", .length = LengthLimit{1 << 20, LengthUnit::kBytes}}),
            "UTF-8 text, at most 1 MiB");
  EXPECT_EQ(declared::help_text({.name = "t", .help = "plain"}), "plain");
}

TEST(MethodTable, TwoExclusiveParamsAreRefusedNamingTheOneThatExcludes) {
  auto both = declared::check_params(kEchoDeclaration, {{"text", "a"}, {"window", "w1"}, {"title", "T"}});
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().message, "give window or title, not both");
  EXPECT_EQ(both.error().details, (nlohmann::json{{"param", "title"}}));
  EXPECT_EQ(both.error().suggestion, "drop one of them");
}

// Every method the daemon serves is one of the shared declarations, and every declaration
// is served: the CLI, `methods` and docs/protocol.md all read the same list.
TEST(MethodTable, ServesExactlyTheSharedDeclarations) {
  MethodTable table(methods::all_methods());
  ASSERT_EQ(table.methods().size(), declared::all().size());
  for (std::size_t i = 0; i < table.methods().size(); ++i) {
    EXPECT_EQ(&table.methods()[i]->decl, declared::all()[i]) << "`methods` lists them in the declarations' order";
  }
  for (const MethodDeclaration* decl : declared::all()) {
    const MethodSpec* spec = table.find(decl->name);
    ASSERT_NE(spec, nullptr) << decl->name;
    EXPECT_EQ(&spec->decl, decl) << decl->name;
  }
}

// settings.set can switch physical input on: it is effectful, so the dispatcher audits it.
// Batch is effectful too, but each of its steps is audited on its own, not twice.
TEST(MethodTable, EffectfulMethodsAreAuditedByTheDispatcher) {
  EXPECT_TRUE(declared::kSettingsSet.audited());
  EXPECT_TRUE(declared::kSetValue.audited());
  EXPECT_TRUE(declared::kAutomationCreate.audited());
  EXPECT_FALSE(declared::kBatch.audited());
  EXPECT_FALSE(declared::kSnapshot.audited());
  for (const MethodDeclaration* decl : declared::all()) {
    if ((decl->flags & declared::kFlagEffectful) != 0 && decl != &declared::kBatch) {
      EXPECT_TRUE(decl->audited()) << decl->name;
    }
  }
}

TEST(MethodTable, BatchStepsFindMethodsByEitherSpelling) {
  MethodTable table(methods::all_methods());
  EXPECT_EQ(table.find_command("set-value"), table.find("set_value"));
  EXPECT_EQ(table.find_command("set_value"), table.find("set_value"));
  EXPECT_EQ(table.find_command("focus-window"), table.find("focus_window"));
  EXPECT_EQ(table.find_command("set value"), nullptr);
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(MethodTable, X11OnlyMethodsAreRefusedOutsideX11ByTheEnvironment) {
  {
    ScopedEnv wayland("WAYLAND_DISPLAY", "wayland-0");
    ScopedEnv display("DISPLAY", ":0");
    auto st = x11_session_from_environment("screenshot");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::kPlatformNotSupported);
    EXPECT_EQ(st.error().details["display_server"], "wayland");
  }
  {
    ScopedEnv wayland("WAYLAND_DISPLAY", nullptr);
    ScopedEnv session("XDG_SESSION_TYPE", nullptr);
    ScopedEnv display("DISPLAY", nullptr);
    auto st = x11_session_from_environment("press");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().details["display_server"], "none");
  }
  {
    ScopedEnv wayland("WAYLAND_DISPLAY", nullptr);
    ScopedEnv session("XDG_SESSION_TYPE", nullptr);
    ScopedEnv display("DISPLAY", ":99");
    EXPECT_TRUE(x11_session_from_environment("press").ok());
  }
}

}  // namespace
}  // namespace companyos::daemon
