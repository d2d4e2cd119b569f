#include "mcp/jsonrpc.h"

#include <gtest/gtest.h>

namespace companyos::mcp {
namespace {

struct LineCase {
  const char* name;
  std::string line;
  std::optional<int> error;  // the code refused with, or nullopt for a message
  std::optional<Message::Kind> kind = std::nullopt;
  nlohmann::json reply_id = nullptr;
};

class ParseMessage : public ::testing::TestWithParam<LineCase> {};

TEST_P(ParseMessage, ClassifiesOrRefuses) {
  const LineCase& c = GetParam();
  Parsed parsed = parse_message(c.line);
  if (c.error) {
    ASSERT_TRUE(parsed.error.has_value()) << c.line;
    EXPECT_EQ(parsed.error->code, *c.error);
    EXPECT_FALSE(parsed.message.has_value());
  } else {
    ASSERT_TRUE(parsed.message.has_value()) << (parsed.error ? parsed.error->message : "");
    EXPECT_EQ(parsed.message->kind, *c.kind);
  }
  EXPECT_EQ(parsed.id, c.reply_id);
}

INSTANTIATE_TEST_SUITE_P(
    Lines, ParseMessage,
    ::testing::Values(
        LineCase{"request", R"({"jsonrpc":"2.0","id":1,"method":"ping"})", std::nullopt, Message::Kind::kRequest, 1},
        LineCase{"string_id", R"({"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}})", std::nullopt,
                 Message::Kind::kRequest, "a"},
        LineCase{"notification", R"({"jsonrpc":"2.0","method":"notifications/initialized"})", std::nullopt,
                 Message::Kind::kNotification},
        LineCase{"response", R"({"jsonrpc":"2.0","id":4,"result":{}})", std::nullopt, Message::Kind::kResponse},
        LineCase{"not_json", "{nope", kParseError},
        LineCase{"truncated", R"({"jsonrpc":"2.0","id":1,"method":"pi)", kParseError},
        LineCase{"batch", R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", kInvalidRequest},
        LineCase{"scalar", "42", kInvalidRequest},
        LineCase{"wrong_version", R"({"jsonrpc":"1.0","id":7,"method":"ping"})", kInvalidRequest, std::nullopt, 7},
        LineCase{"no_version", R"({"id":7,"method":"ping"})", kInvalidRequest, std::nullopt, 7},
        LineCase{"version_a_number", R"({"jsonrpc":2,"id":7,"method":"ping"})", kInvalidRequest, std::nullopt, 7},
        LineCase{"version_an_object", R"({"jsonrpc":{"v":"2.0"},"id":7,"method":"ping"})", kInvalidRequest,
                 std::nullopt, 7},
        LineCase{"float_id", R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", kInvalidRequest},
        LineCase{"object_id", R"({"jsonrpc":"2.0","id":{},"method":"ping"})", kInvalidRequest},
        LineCase{"method_not_string", R"({"jsonrpc":"2.0","id":2,"method":5})", kInvalidRequest, std::nullopt, 2},
        LineCase{"no_method", R"({"jsonrpc":"2.0","id":2})", kInvalidRequest, std::nullopt, 2},
        LineCase{"params_array", R"({"jsonrpc":"2.0","id":3,"method":"ping","params":[1]})", kInvalidParams,
                 std::nullopt, 3},
        LineCase{"too_deep", std::string(200, '[') + std::string(200, ']'), kParseError},
        LineCase{"oversize", std::string(kMaxMessageBytes + 1, ' '), kInvalidRequest}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(JsonRpc, RepliesCarryTheVersionAndId) {
  EXPECT_EQ(result_reply(3, {{"a", 1}}), nlohmann::json::parse(R"({"jsonrpc":"2.0","id":3,"result":{"a":1}})"));
  EXPECT_EQ(error_reply("x", {kMethodNotFound, "no", nullptr}),
            nlohmann::json::parse(R"({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}})"));
  EXPECT_EQ(error_reply(nullptr, {kUnsupportedProtocolVersion, "v", {{"supported", {"1"}}}})["error"]["data"],
            nlohmann::json::parse(R"({"supported":["1"]})"));
}

TEST(JsonRpc, ALineIsOneLineEvenWithNewlinesAndBadUtf8) {
  const std::string line = to_line(notification("n", {{"text", "a\nb\xff"}}));
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded());
}

}  // namespace
}  // namespace companyos::mcp
