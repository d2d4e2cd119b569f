#include "daemon/server/request.h"

#include <gtest/gtest.h>

namespace companyos::daemon {
namespace {

struct RequestCase {
  std::string name;
  std::string line;
  bool oversize;
  bool valid;
  nlohmann::json id;  // id echoed in the error, when invalid
  friend void PrintTo(const RequestCase& c, std::ostream* os) { *os << c.name; }
};

class RequestParsing : public ::testing::TestWithParam<RequestCase> {};

TEST_P(RequestParsing, ValidatesShape) {
  const RequestCase& c = GetParam();
  auto parsed = parse_request(FramedLine{c.line, c.oversize});
  if (c.valid) {
    ASSERT_TRUE(std::holds_alternative<Request>(parsed)) << std::get<RequestError>(parsed).error.message;
    return;
  }
  ASSERT_TRUE(std::holds_alternative<RequestError>(parsed)) << c.name;
  const auto& err = std::get<RequestError>(parsed);
  EXPECT_EQ(err.error.code, ErrorCode::kInvalidArgs);
  EXPECT_EQ(err.id, c.id);
  EXPECT_FALSE(err.error.message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Table, RequestParsing,
    ::testing::Values(
        RequestCase{"minimal", R"({"id":1,"method":"ping"})", false, true, nullptr},
        RequestCase{"with_params", R"({"id":"x","method":"ping","params":{}})", false, true, nullptr},
        RequestCase{"null_params", R"({"id":1,"method":"ping","params":null})", false, true, nullptr},
        RequestCase{"no_id", R"({"method":"ping"})", false, true, nullptr},
        RequestCase{"oversize", "", true, false, nullptr},
        RequestCase{"not_json", "not json", false, false, nullptr},
        RequestCase{"bad_utf8", "{\"id\":1,\"method\":\"p\xff\"}", false, false, nullptr},
        RequestCase{"array", "[1,2]", false, false, nullptr},
        RequestCase{"string", "\"ping\"", false, false, nullptr},
        RequestCase{"number", "42", false, false, nullptr},
        RequestCase{"missing_method", R"({"id":5})", false, false, 5},
        RequestCase{"method_not_string", R"({"id":5,"method":7})", false, false, 5},
        RequestCase{"params_array", R"({"id":5,"method":"ping","params":[]})", false, false, 5},
        RequestCase{"params_string", R"({"id":"q","method":"ping","params":"x"})", false, false, "q"},
        RequestCase{"id_object", R"({"id":{},"method":"ping"})", false, false, nullptr},
        RequestCase{"unknown_field", R"({"id":9,"method":"ping","extra":1})", false, false, 9},
        RequestCase{"origin_person", R"({"id":1,"method":"ping","origin":"person"})", false, true, nullptr},
        RequestCase{"origin_agent", R"({"id":1,"method":"ping","origin":"agent"})", false, true, nullptr},
        RequestCase{"origin_schedule", R"({"id":3,"method":"ping","origin":"schedule"})", false, false, 3},
        RequestCase{"origin_not_string", R"({"id":3,"method":"ping","origin":1})", false, false, 3},
        RequestCase{"origin_null", R"({"id":3,"method":"ping","origin":null})", false, false, 3},
        RequestCase{"trailing_garbage", R"({"id":1,"method":"ping"} x)", false, false, nullptr},
        // The request object is one level: params holding 126 more make 128 in all.
        RequestCase{"nesting_at_the_limit",
             R"({"id":1,"method":"ping","params":{"v":)" + std::string(126, '[') +
                 std::string(126, ']') + "}}",
             false, true, nullptr},
        RequestCase{"nesting_past_the_limit",
             R"({"id":1,"method":"ping","params":{"v":)" + std::string(127, '[') +
                 std::string(127, ']') + "}}",
             false, false, nullptr}),
    [](const ::testing::TestParamInfo<RequestCase>& info) { return info.param.name; });

TEST(RequestParsing, TooDeepANestingNamesTheLimit) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto parsed = parse_request(FramedLine{R"({"id":1,"method":"settings.set","params":{"key":"max_level","value":)" + deep + "}}", false});
  ASSERT_TRUE(std::holds_alternative<RequestError>(parsed));
  const auto& err = std::get<RequestError>(parsed).error;
  EXPECT_EQ(err.code, ErrorCode::kInvalidArgs);
  EXPECT_EQ(err.details["max_depth"], 128) << err.details.dump();
  EXPECT_NE(err.message.find("128"), std::string::npos) << err.message;
}

TEST(RequestParsing, KeepsIdMethodAndParams) {
  auto parsed = parse_request(FramedLine{R"({"id":"abc","method":"settings.get","params":{"key":"max_level"}})", false});
  ASSERT_TRUE(std::holds_alternative<Request>(parsed));
  const auto& request = std::get<Request>(parsed);
  EXPECT_EQ(request.id, "abc");
  EXPECT_EQ(request.method, "settings.get");
  EXPECT_EQ(request.params["key"], "max_level");
}

TEST(RequestParsing, SaysWhoTheRequestSpeaksFor) {
  auto person = parse_request(FramedLine{R"({"id":1,"method":"ping"})", false});
  auto agent = parse_request(FramedLine{R"({"id":1,"method":"ping","origin":"agent"})", false});
  ASSERT_TRUE(std::holds_alternative<Request>(person) && std::holds_alternative<Request>(agent));
  EXPECT_EQ(std::get<Request>(person).origin, protocol::Origin::kPerson);
  EXPECT_EQ(std::get<Request>(agent).origin, protocol::Origin::kAgent);
  // What a client sends for an agent parses back as an agent's.
  const std::string line = protocol::to_line(protocol::make_request(7, "ping", {}, protocol::Origin::kAgent));
  auto sent = parse_request(FramedLine{line.substr(0, line.size() - 1), false});
  ASSERT_TRUE(std::holds_alternative<Request>(sent));
  EXPECT_EQ(std::get<Request>(sent).origin, protocol::Origin::kAgent);
}

}  // namespace
}  // namespace companyos::daemon
