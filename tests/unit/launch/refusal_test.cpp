#include "launch/refusal.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos::launch {
namespace {

TEST(Refusal, BecomesABlockedStepsError) {
  const Error error = to_error(make_refusal(RefusalReason::kShellEntry, "starts bash",
                                            {{"interpreter", "bash"}}, "pick another entry"));
  EXPECT_EQ(error.code, ErrorCode::kPolicyDenied);
  EXPECT_EQ(error.message, "starts bash");
  EXPECT_EQ(error.details.at("reason"), "shell_entry");
  EXPECT_EQ(error.details.at("delivery"), "not_delivered");
  EXPECT_EQ(error.details.at("interpreter"), "bash");
  EXPECT_EQ(error.suggestion, "pick another entry");
  EXPECT_EQ(error.retry, Retry::kSafe);
}

TEST(Refusal, HasAStableCodeForEveryReason) {
  struct Case {
    RefusalReason reason;
    std::string code;
    ErrorCode error;
  };
  const Case cases[] = {
      {RefusalReason::kNoEntry, "no_entry", ErrorCode::kAppNotFound},
      {RefusalReason::kAmbiguousEntry, "ambiguous_entry", ErrorCode::kAmbiguousTarget},
      {RefusalReason::kInvalidEntry, "invalid_entry", ErrorCode::kPolicyDenied},
      {RefusalReason::kTerminalEntry, "terminal_entry", ErrorCode::kPolicyDenied},
      {RefusalReason::kShellEntry, "shell_entry", ErrorCode::kPolicyDenied},
      {RefusalReason::kCannotTakeTarget, "cannot_take_target", ErrorCode::kActionNotSupported},
      {RefusalReason::kNoGioLaunch, "no_gio_launch", ErrorCode::kPlatformNotSupported},
      {RefusalReason::kNotX11, "not_x11", ErrorCode::kPlatformNotSupported},
      {RefusalReason::kInvalidAppName, "invalid_app_name", ErrorCode::kInvalidArgs},
      {RefusalReason::kInvalidChord, "invalid_chord", ErrorCode::kInvalidArgs},
      {RefusalReason::kBridgeUnavailable, "bridge_unavailable", ErrorCode::kNotFound},
      {RefusalReason::kNoWindow, "no_window", ErrorCode::kWindowNotFound},
      {RefusalReason::kAmbiguousWindow, "ambiguous", ErrorCode::kAmbiguousTarget},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(to_string(c.reason), c.code);
    EXPECT_EQ(default_error_code(c.reason), c.error) << c.code;
  }
}

}  // namespace
}  // namespace companyos::launch
