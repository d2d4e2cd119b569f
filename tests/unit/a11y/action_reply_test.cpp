#include "a11y/action_reply.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

using nlohmann::json;

TEST(ActionReply, CarriesDeliveryAndRetry) {
  ActionReply reply;
  reply.kind = ActionKind::kSetValue;
  reply.delivery = Delivery::kDeliveredVerified;
  reply.route = "EditableText.SetTextContents";
  reply.target = {"@s:e4", "fx", 42, "w0123456789ab", "FX", "text", "Text", 4};
  reply.verification = verify_text("hello", std::string("hello"), false);
  json shown = action_reply_to_json(reply);
  EXPECT_FALSE(shown.contains("answered"));
  EXPECT_EQ(shown["method"], "set-value");
  EXPECT_EQ(shown["delivery"], "delivered_verified");
  EXPECT_EQ(shown["retry"], "unsafe");
  EXPECT_EQ(shown["target"]["ref"], "@s:e4");
  EXPECT_EQ(shown["target"]["window"]["id"], "w0123456789ab");
  EXPECT_EQ(shown["verification"]["matched"], true);
  EXPECT_FALSE(shown.contains("already"));
  EXPECT_FALSE(shown.contains("expectation"));

  ActionReply already;
  already.kind = ActionKind::kExpand;
  already.delivery = Delivery::kNotDelivered;
  already.already = true;
  shown = action_reply_to_json(already);
  EXPECT_EQ(shown["delivery"], "not_delivered");
  EXPECT_EQ(shown["retry"], "safe");
  EXPECT_EQ(shown["already"], true);
  EXPECT_TRUE(shown["verification"].is_null());
  EXPECT_FALSE(shown["target"].contains("ref"));

  // A click the app has not answered yet (busy in a modal dialog, say) was still sent.
  ActionReply busy;
  busy.kind = ActionKind::kClick;
  busy.delivery = Delivery::kDeliveredUnverified;
  busy.answered = false;
  shown = action_reply_to_json(busy);
  EXPECT_EQ(shown["answered"], false);
  EXPECT_EQ(shown["retry"], "unsafe");
}

}  // namespace
}  // namespace companyos::a11y
