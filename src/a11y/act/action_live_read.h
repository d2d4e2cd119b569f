// Live reads of one element around an action — immediately before it (identity, states,
// bounds, action names, and what the action needs) and after it (the read-back) — as one
// round of pipelined calls on the app's pipeline (two rounds where action names or a
// counted text are needed). The text of password-role elements is never read.
#pragma once

#include <optional>
#include <string>

#include "a11y/bus/pipeline.h"
#include "a11y/model.h"
#include "a11y/toolkit/traits.h"

namespace companyos::a11y {

struct LiveReadNeeds {
  bool identity = false;         // role, name, description, accessible id, interfaces
  bool states = false;
  bool bounds = false;           // as a snapshot reads them (null offscreen / not showing)
  bool actions = false;          // stable names: GetActions, then GetName of each
  bool index_in_parent = false;
  bool text = false;             // whole text (skipped for password roles)
  bool character_count = false;
  bool caret = false;
  bool value = false;            // Value.CurrentValue
  bool value_range = false;      // Value.MinimumValue and MaximumValue
};

struct ElementReading {
  Node node;  // path always; other fields as the needs asked
  int index_in_parent = -1;
  std::optional<std::string> text;
  std::optional<int> character_count;
  std::optional<int> caret;
  std::optional<double> value;
  std::optional<double> minimum;
  std::optional<double> maximum;
};

enum class ReadStatus {
  kRead,
  kGone,          // the app says the element (or the app) is gone
  kUnanswered,    // the deadline passed first
  kDisconnected,  // the connection to the app closed
};

struct ReadResult {
  ReadStatus status = ReadStatus::kRead;
  ElementReading reading;
};

// known: what is already known of the element (its role and states steer which calls are
// made: no text for password roles, GetText(0,-1) only for single-line text where the
// toolkit returns all of it).
ReadResult read_element_live(Pipeline& pipeline, const Node& known, const LiveReadNeeds& needs,
                             const ToolkitTraits& toolkit);

// Selection.IsChildSelected(index) on a container; nullopt when it did not answer.
std::optional<bool> read_child_selected(Pipeline& pipeline, const std::string& container_path,
                                        int index);

}  // namespace companyos::a11y
