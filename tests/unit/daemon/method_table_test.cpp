#include "daemon/method_table.h"

#include <gtest/gtest.h>

#include <set>

#include "daemon/methods/methods.h"

namespace companyos::daemon {
namespace {

const MethodSpec kEcho{
    .name = "echo",
    .summary = "test method",
    .params = {{"text", ParamType::kString, true, ""},
               {"count", ParamType::kInteger, false, ""},
               {"loud", ParamType::kBoolean, false, ""},
               {"opts", ParamType::kObject, false, ""},
               {"list", ParamType::kArray, false, ""},
               {"anything", ParamType::kAny, false, ""}},
    .handler = [](const nlohmann::json& params, DaemonContext&, Reply reply) { reply(params); },
};

struct Case {
  std::string name;
  nlohmann::json params;
  bool valid;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

class ParamChecks : public ::testing::TestWithParam<Case> {};

TEST_P(ParamChecks, MatchTheSchema) {
  const auto& c = GetParam();
  auto st = check_params(kEcho, c.params);
  EXPECT_EQ(st.ok(), c.valid) << c.params.dump();
  if (!st.ok()) {
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgs);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ParamChecks,
    ::testing::Values(
        Case{"required_only", {{"text", "a"}}, true},
        Case{"all", {{"text", "a"}, {"count", 2}, {"loud", true}, {"opts", nlohmann::json::object()},
                     {"list", nlohmann::json::array()}, {"anything", nullptr}}, true},
        Case{"missing_required", nlohmann::json::object(), false},
        Case{"wrong_string", {{"text", 1}}, false},
        Case{"float_for_integer", {{"text", "a"}, {"count", 1.5}}, false},
        Case{"string_for_integer", {{"text", "a"}, {"count", "1"}}, false},
        Case{"int_for_bool", {{"text", "a"}, {"loud", 1}}, false},
        Case{"array_for_object", {{"text", "a"}, {"opts", nlohmann::json::array()}}, false},
        Case{"object_for_array", {{"text", "a"}, {"list", nlohmann::json::object()}}, false},
        Case{"unknown", {{"text", "a"}, {"colour", "red"}}, false}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(MethodTable, EveryBuiltinMethodIsDeclaredOnceWithAHandler) {
  MethodTable table(methods::all_methods());
  std::set<std::string_view> names;
  for (const MethodSpec* spec : table.methods()) {
    EXPECT_TRUE(names.insert(spec->name).second) << "duplicate " << spec->name;
    EXPECT_NE(spec->handler, nullptr) << spec->name;
    EXPECT_FALSE(spec->summary.empty()) << spec->name;
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
  EXPECT_EQ(described[0]["params"].size(), 6U);
  EXPECT_EQ(described[0]["params"][0]["required"], true);
  EXPECT_EQ(described[1]["flags"], nlohmann::json::array({"effectful"}));
}

}  // namespace
}  // namespace companyos::daemon
