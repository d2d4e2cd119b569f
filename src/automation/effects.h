// The effect class every step declares (docs/automations.md): what running it can change, and
// whether `run undo` can take it back. The promotion gate's condition 3 reads these.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "automation/definition.h"

namespace companyos::automation {

enum class Effect {
  kNone,             // wait, check, focus: nothing to undo
  kLocalReversible,  // open_link, open_file (the window is closed), set_value (the previous
                     // value is restored), a command with an undo (the undo runs)
  kIrreversible,     // press, click, a command without an undo
};

// "none", "local_reversible", "irreversible".
std::string_view to_string(Effect effect);

Effect effect_of(const Step& step);
inline bool has_effect(const Step& step) { return effect_of(step) != Effect::kNone; }

// Gate condition 3: the paths ("actions[1]") of every irreversible step in any phase, in
// definition order. Empty when every effect is local and reversible.
std::vector<std::string> all_effects_local_and_reversible(const Definition& definition);

}  // namespace companyos::automation
