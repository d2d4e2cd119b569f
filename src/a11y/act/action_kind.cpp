#include "a11y/act/action_kind.h"

#include <array>
#include <utility>

namespace companyos::a11y {
namespace {

constexpr std::array<std::pair<ActionKind, std::string_view>, 9> kMethods{{
    {ActionKind::kClick, "click"},
    {ActionKind::kToggle, "toggle"},
    {ActionKind::kSelect, "select"},
    {ActionKind::kFocus, "focus"},
    {ActionKind::kExpand, "expand"},
    {ActionKind::kCollapse, "collapse"},
    {ActionKind::kNamed, "action"},
    {ActionKind::kSetValue, "set-value"},
    {ActionKind::kType, "type"},
}};

}  // namespace

std::string_view method_name(ActionKind kind) {
  for (const auto& [known, name] : kMethods) {
    if (known == kind) return name;
  }
  return "action";
}

}  // namespace companyos::a11y
