// What an action acts on: a ref from a snapshot, or a selector resolved against the live
// windows of an app. Both resolve only to exactly one live element (live_resolve.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "a11y/cell_address.h"

namespace companyos::a11y {

// within: a scope, the full ref of an ancestor from a snapshot of the same window; the
// element must then be unique under that ancestor, which must itself resolve uniquely.
// cell: the element is that cell of the table the ref (or selector) names, fetched from
// the table by its row and column (Table.GetAccessibleAt), shown or not: a cell is unique
// by its table and address.
struct RefTarget {
  std::string ref;  // always the full form "@<snapshot>:e<N>"
  std::optional<std::string> within = std::nullopt;
  std::optional<CellAddress> cell = std::nullopt;
  friend bool operator==(const RefTarget&, const RefTarget&) = default;
};

// A scope named by what it is rather than by a ref (an automation step outlives every
// snapshot): the one element of the window with this role, name and (if given) id.
struct ScopeSelector {
  std::uint32_t role = 0;
  std::string name;
  std::optional<std::string> accessible_id;
  friend bool operator==(const ScopeSelector&, const ScopeSelector&) = default;
};

// Every given field must match exactly (case-sensitive; app names case-insensitively).
struct Selector {
  std::string app;
  std::uint32_t role = 0;  // AT-SPI role, from a role name as printed ("push button")
  std::string name;
  std::optional<std::string> accessible_id;
  std::optional<std::string> window_id;  // else every window of the app (or by title)
  std::optional<std::string> title;
  std::optional<std::string> within = std::nullopt;  // as RefTarget's
  // Or a scope by identity; never together with within.
  std::optional<ScopeSelector> within_element = std::nullopt;
  // As RefTarget's. With a cell, role 0 (and no name) names the window's one table: a
  // spreadsheet window shows one sheet.
  std::optional<CellAddress> cell = std::nullopt;
  friend bool operator==(const Selector&, const Selector&) = default;
};

using ActionTarget = std::variant<RefTarget, Selector>;

// A short description for messages: the ref, or "push button \"OK\" in app gedit".
std::string describe(const ActionTarget& target);

}  // namespace companyos::a11y
