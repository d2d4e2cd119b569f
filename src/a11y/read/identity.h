// Identity of an element = (role, accessible id, name, description) within one window
// (docs/actions.md, "Refs, selectors and resolution"); position, size and value are not
// identity. Elements of one window that share an identity are twins: a ref to one of them
// cannot be resolved unambiguously.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "a11y/model.h"

namespace companyos::a11y {

struct Identity {
  std::uint32_t role = 0;
  std::string accessible_id;  // compared only when known
  bool accessible_id_known = false;
  std::string name;
  std::string description;
  friend bool operator==(const Identity&, const Identity&) = default;
};

// Whether a live element (its id read) can be the element this identity was taken from.
bool matches_identity(const Identity& saved, const Node& live);

Identity identity_of(const Node& node);

// Sets twin/twin_group on every node: groups are numbered 1, 2, … in order of their first
// member; nodes with a unique identity get twin=false, twin_group=0. Each twin also gets its
// twin_scope: the highest ancestor below where its group's members meet that is unique
// itself — what a caller passes as the scope (within) to reach this twin and no other.
// Groups of more than kMaxScopedTwinGroup members get none (the cost is quadratic in them).
void mark_twins(std::vector<Node>& nodes);

inline constexpr std::size_t kMaxScopedTwinGroup = 64;

}  // namespace companyos::a11y
