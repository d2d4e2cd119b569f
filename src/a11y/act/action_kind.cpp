#include "a11y/act/action_kind.h"

#include <array>
#include <utility>

#include "companyos/methods.h"

namespace companyos::a11y {
namespace {

// Each action is named as the CLI command of the method that asks for it (its declaration).
const std::array<std::pair<ActionKind, const methods::MethodDeclaration*>, 9> kMethods{{
    {ActionKind::kClick, &methods::kClick},
    {ActionKind::kToggle, &methods::kToggle},
    {ActionKind::kSelect, &methods::kSelect},
    {ActionKind::kFocus, &methods::kFocus},
    {ActionKind::kExpand, &methods::kExpand},
    {ActionKind::kCollapse, &methods::kCollapse},
    {ActionKind::kNamed, &methods::kNamedAction},
    {ActionKind::kSetValue, &methods::kSetValue},
    {ActionKind::kType, &methods::kType},
}};

}  // namespace

std::string_view method_name(ActionKind kind) {
  for (const auto& [known, declaration] : kMethods) {
    if (known == kind) return declaration->command;
  }
  return methods::kNamedAction.command;
}

}  // namespace companyos::a11y
