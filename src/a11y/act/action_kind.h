// The semantic actions, by the protocol method that asks for each; method_name() is that
// method's CLI command, from its declaration.
#pragma once

#include <string_view>

namespace companyos::a11y {

enum class ActionKind {
  kClick,     // "click"
  kToggle,    // "toggle"
  kSelect,    // "select"
  kFocus,     // "focus"
  kExpand,    // "expand"
  kCollapse,  // "collapse"
  kNamed,     // "action": a named action the element lists
  kSetValue,  // "set-value"
  kType,      // "type"
};

std::string_view method_name(ActionKind kind);

}  // namespace companyos::a11y
