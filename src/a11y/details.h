// Per-node details a bulk read lacks — action names, screen bounds, value — fetched with
// asynchronous calls, only for nodes whose interfaces have them. Text is read as
// CharacterCount then GetText(0, count) (never INT_MAX, which GTK3 reads past the end of);
// a password-text node's text and value are never read.
#pragma once

#include <cstddef>

#include "a11y/call_scope.h"
#include "a11y/model.h"

namespace companyos::a11y {

struct DetailOptions {
  bool accessible_id = true;         // also read the AccessibleId property
  std::size_t text_limit = 65536;    // characters of Text read at most
};

// Which nodes of a snapshot get their AccessibleId read (one call each). An id only
// changes identity where role, name and description are shared, so by default only
// those nodes pay for it; twins stay exact either way.
enum class AccessibleIds { kWhereIdentityNeedsThem, kAll, kNone };

// Where a node's value comes from: never for password text, else Value before Text.
enum class ValueSource { kNone, kWithheld, kValue, kText };
ValueSource value_source(std::uint32_t role, std::uint32_t interfaces);

// Starts the calls for one node; they write into *node, which must stay in place until
// the scope's wait() returns.
void fetch_details(CallScope& scope, const Channel& channel, Node& node,
                   const DetailOptions& options);

// The Value a GVariant double shows as: shortest round-trip form ("50", "0.25").
std::string format_value(double value);

}  // namespace companyos::a11y
