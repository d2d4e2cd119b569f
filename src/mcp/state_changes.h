// What changed between two states of one window, as the lines an agent reads instead of the
// whole new state after an action. Lines are the daemon's outline lines ("eN role "name" …",
// indented by depth); a line is the same in both when all but its leading number is.
//
// Each line of the changes starts with a mark:
//   "+ " a line of the new state that the old one did not have;
//   "~ " a line of the new state replacing the old one with the same number;
//   "- " a line of the old state that is gone (with the old state's number);
//   "  " an unchanged line, shown because it holds a changed one (its container);
//   "= " unchanged lines whose numbers moved: "= e16-e43 unchanged, were e13-e40" (or one
//        element: "= e16 unchanged, was e13"), indented as the first of them.
// Every line of the old state not mentioned is in the new one unchanged, with its number.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace companyos::mcp {

// The changes from `before` to `after` (empty when none); nullopt when they were not
// worked out: the states hold more lines than the comparison handles at once.
std::optional<std::string> outline_changes(std::string_view before, std::string_view after);

// The comparison's bound: before × after lines, once the lines both start and end with
// are set aside.
inline constexpr std::size_t kMaxComparedLinePairs = 4'000'000;

}  // namespace companyos::mcp
