#include "a11y/act/action_kind.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(ActionKind, MethodNamesRoundTrip) {
  const char* methods[] = {"click",  "toggle", "select",    "focus", "expand",
                           "collapse", "action", "set-value", "type"};
  for (const char* method : methods) {
    const auto kind = action_kind_from_method(method);
    ASSERT_TRUE(kind.has_value()) << method;
    EXPECT_EQ(method_name(*kind), method);
  }
  for (const char* unknown : {"", "Click", "set_value", "press", "focus-window"}) {
    EXPECT_FALSE(action_kind_from_method(unknown).has_value()) << unknown;
  }
}

}  // namespace
}  // namespace companyos::a11y
