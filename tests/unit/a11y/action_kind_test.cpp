#include "a11y/act/action_kind.h"

#include <utility>

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(ActionKind, EachKindIsNamedByItsMethod) {
  const std::pair<ActionKind, const char*> cases[] = {
      {ActionKind::kClick, "click"},   {ActionKind::kToggle, "toggle"},     {ActionKind::kSelect, "select"},
      {ActionKind::kFocus, "focus"},   {ActionKind::kExpand, "expand"},     {ActionKind::kCollapse, "collapse"},
      {ActionKind::kNamed, "action"},  {ActionKind::kSetValue, "set-value"}, {ActionKind::kType, "type"},
  };
  for (const auto& [kind, name] : cases) EXPECT_EQ(method_name(kind), name);
}

}  // namespace
}  // namespace companyos::a11y
