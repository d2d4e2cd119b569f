// Per-node details a bulk read lacks — action names, bounds, value, accessible id — read
// with pipelined calls, and only for the nodes that need each one (plan_details):
// - bounds: Component nodes; where the toolkit keeps the showing state (GTK3), only showing
//   ones, since an offscreen node has no position to give (GTK3 answers INT_MIN): null.
// - actions: GetActions on Action nodes gives their count and localized names. The stable
//   names actions are chosen by come from GetName(i), read once per kind of node (same
//   role, same localized names and descriptions) and shared by that kind's other nodes.
// - value: never for password text; Value.CurrentValue where the node has Value; else its
//   Text where that text is its value (text_is_value); else, for a combo box with
//   Selection, the name of its selected child (a closed GTK 3 combo box shows its item
//   nowhere else: its items are folded and none says selected). Text is read with GetText(0, -1)
//   where the toolkit returns the whole text for it (GTK3 single-line text), else as
//   CharacterCount then GetText(0, count); never with INT_MAX (GTK3 reads past the end).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "a11y/bus/pipeline.h"
#include "a11y/model.h"
#include "a11y/toolkit/traits.h"

namespace companyos::a11y {

// Which Text nodes get their text read as their value.
enum class TextValues {
  kWhereTextIsTheValue,  // see text_is_value (snapshots)
  kAll,                  // every Text node that is not password text (reading one element)
};

// An element's action count as the app states it (NActions) is believed up to this many:
// a GetName call is made per action, and no real element lists more than a handful.
inline constexpr std::size_t kMaxActionsPerNode = 64;

struct DetailOptions {
  bool accessible_id = true;         // also read the AccessibleId property
  std::size_t text_limit = 65536;    // characters of Text read at most
  TextValues text_values = TextValues::kWhereTextIsTheValue;
  bool action_names_per_node = false;  // GetName for every action of every node: no sharing
};

// Which nodes of a snapshot get their AccessibleId read (one call each). An id only
// changes identity where role, name and description are shared, so by default only
// those nodes pay for it; twins stay exact either way.
enum class AccessibleIds { kWhereIdentityNeedsThem, kAll, kNone };

// Where a node's value comes from: never for password text, else Value before Text, else a
// combo box's selected child's name.
enum class ValueSource { kNone, kWithheld, kValue, kText, kSelectedChild };
ValueSource value_source(std::uint32_t role, std::uint32_t interfaces);

// Whether a Text node's text is its value, read into the snapshot: true for editable text
// (EditableText or the editable state: what a person typed), for roles whose text is
// their content rather than their label (text, entry, terminal, paragraph, editbar, the
// document roles), and for any Text node whose name is empty (the text is all it says).
// False for password text and for named labels, headings, captions, links, buttons, menu
// items…: their name already is their text (GTK names a label by its text).
bool text_is_value(std::uint32_t role, std::uint32_t interfaces, StateSet states,
                   std::string_view name);

// The calls one node gets.
struct DetailPlan {
  bool bounds = false;
  bool actions = false;
  bool accessible_id = false;
  ValueSource value = ValueSource::kNone;
  bool whole_text_in_one_call = false;  // GetText(0, -1) instead of CharacterCount first
  friend bool operator==(const DetailPlan&, const DetailPlan&) = default;
};
DetailPlan plan_details(const Node& node, const DetailOptions& options,
                        const ToolkitTraits& toolkit);

// Reads the planned details of every node on the pipeline and waits for them. read_ids,
// when not empty, says per node whether its AccessibleId is read (instead of
// options.accessible_id). False when the deadline passed or the app went away first
// (what did arrive is filled in).
bool read_details(Pipeline& pipeline, std::vector<Node>& nodes, const DetailOptions& options,
                  const ToolkitTraits& toolkit, const std::vector<bool>& read_ids = {});

// The Value a double shows as: shortest round-trip form ("50", "0.25").
std::string format_value(double value);

}  // namespace companyos::a11y
