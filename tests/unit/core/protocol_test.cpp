#include "companyos/protocol.h"

#include <gtest/gtest.h>

namespace companyos::protocol {
namespace {

TEST(Envelope, OkReplyHasIdOkAndData) {
  auto reply = ok_envelope(7, {{"pong", true}});
  EXPECT_EQ(reply["id"], 7);
  EXPECT_EQ(reply["ok"], true);
  EXPECT_EQ(reply["data"]["pong"], true);
}

TEST(Envelope, ErrorReplyCarriesCodeMessageDetailsSuggestionRetry) {
  auto reply = error_envelope("a", ErrorBody{ErrorCode::kStaleRef, "gone", {{"kind", "saved_ref_absent"}},
                                             "take a new snapshot", Retry::kSafe});
  EXPECT_EQ(reply["id"], "a");
  EXPECT_EQ(reply["ok"], false);
  EXPECT_EQ(reply["error"]["code"], "STALE_REF");
  EXPECT_EQ(reply["error"]["message"], "gone");
  EXPECT_EQ(reply["error"]["details"]["kind"], "saved_ref_absent");
  EXPECT_EQ(reply["error"]["suggestion"], "take a new snapshot");
  EXPECT_EQ(reply["error"]["retry"], "safe");
}

TEST(Envelope, NullDetailsBecomeAnEmptyObject) {
  auto reply = error_envelope(nullptr, ErrorBody{ErrorCode::kInternal, "x", nullptr, "", Retry::kUnsafe});
  EXPECT_TRUE(reply["error"]["details"].is_object());
  EXPECT_EQ(reply["error"]["retry"], "unsafe");
  EXPECT_FALSE(reply["error"].contains("suggestion"));
}

TEST(Envelope, LineIsOneLineEvenWithNewlinesAndBadUtf8InValues) {
  auto line = to_line(ok_envelope(1, {{"text", std::string("a\nb\xff")}}));
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto parsed = nlohmann::json::parse(line);
  EXPECT_EQ(parsed["data"]["text"].get<std::string>().substr(0, 3), "a\nb");
}

}  // namespace
}  // namespace companyos::protocol
