// Element refs: "@<snapshot-id>:e<N>", N the 1-based depth-first position of the element
// in that snapshot's full tree; snapshot ids are 1–16 lower-case letters and digits.
#pragma once

#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::a11y {

struct ElementRef {
  std::string snapshot_id;
  int index = 0;  // N of e<N>, ≥ 1
  friend bool operator==(const ElementRef&, const ElementRef&) = default;
};

std::string format_ref(std::string_view snapshot_id, int index);
// INVALID_ARGS (with the expected form as suggestion) unless text is exactly a ref.
Result<ElementRef> parse_ref(std::string_view text);
bool is_valid_snapshot_id(std::string_view id);

}  // namespace companyos::a11y
