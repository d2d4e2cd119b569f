#include "mcp/outcome_line.h"

#include <gtest/gtest.h>

namespace companyos::mcp {
namespace {

struct OutcomeCase {
  const char* name;
  const char* envelope;
  const char* line;
  const char* delivery;
  bool is_error;
};

class DescribeOutcome : public ::testing::TestWithParam<OutcomeCase> {};

TEST_P(DescribeOutcome, SaysExactlyHowSureItIs) {
  const OutcomeCase& c = GetParam();
  ActionOutcome outcome = describe_outcome("click", nlohmann::json::parse(c.envelope));
  EXPECT_EQ(outcome.line, c.line);
  EXPECT_EQ(outcome.delivery, c.delivery);
  EXPECT_EQ(outcome.is_error, c.is_error);
  EXPECT_EQ(outcome.verified, std::string(c.delivery) == "delivered_verified");
}

INSTANTIATE_TEST_SUITE_P(
    Deliveries, DescribeOutcome,
    ::testing::Values(
        OutcomeCase{"verified", R"({"ok":true,"data":{"delivery":"delivered_verified","route":"EditableText"}})",
                    "Done (click), and read back.", "delivered_verified", false},
        OutcomeCase{"semantic", R"({"ok":true,"data":{"delivery":"delivered_unverified","route":"action:click"}})",
                    "The element's own action ran (click); nothing confirmed the effect.", "delivered_unverified",
                    false},
        OutcomeCase{"physical", R"({"ok":true,"data":{"delivery":"delivered_unverified","route":"xtest:pointer"}})",
                    "Input was posted (click); nothing confirmed the effect.", "delivered_unverified", false},
        OutcomeCase{"refused",
                    R"({"ok":false,"error":{"code":"AMBIGUOUS_TARGET","message":"2 elements match",
                        "suggestion":"name the window","retry":"safe","details":{"delivery":"not_delivered"}}})",
                    "Nothing was done: 2 elements match. name the window.", "not_delivered", true},
        OutcomeCase{"refused_without_delivery_detail",
                    R"({"ok":false,"error":{"code":"POLICY_DENIED","message":"off limits","retry":"safe"}})",
                    "Nothing was done: off limits.", "not_delivered", true},
        OutcomeCase{"delivered_but_mismatched",
                    R"({"ok":false,"error":{"code":"TIMEOUT","message":"the value read back differs","retry":"unsafe",
                        "details":{"delivery":"delivered_unverified","route":"action:click"}}})",
                    "The element's own action ran (click); nothing confirmed the effect. the value read back differs.",
                    "delivered_unverified", true},
        OutcomeCase{"unsafe_without_detail", R"({"ok":false,"error":{"code":"INTERNAL","message":"x","retry":"unsafe"}})",
                    "The element's own action ran (click); nothing confirmed the effect. x.", "delivered_unverified",
                    true}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace companyos::mcp
