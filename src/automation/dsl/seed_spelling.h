// The product seed spells a command line `command` + `args`; this DSL spells it `executable`
// + `argv`. Definitions written either way load: before validation, a command step, a command
// check and an undo have the seed's names turned into ours (values untouched), so what is
// stored, shown and run is one canonical form. An object that gives both spellings of one
// field is a problem at that path, never a silent choice. The seed's command precondition
// (in its spelling) skips the run when it exits non-zero: it becomes the command check that
// means exactly that here, where a precondition has no effect of its own.
#pragma once

#include <nlohmann/json.hpp>

#include "core/problems.h"

namespace companyos::automation::dsl {

// `input` with the seed's spelling turned into ours; problems (both spellings given) added
// to `problems` with paths as the validator writes them ("actions[1].command").
nlohmann::json in_our_spelling(const nlohmann::json& input, Problems& problems);

}  // namespace companyos::automation::dsl
