// What a person is asked to approve, and what logs may name: the step's own description
// when it has one, else one line built from its type and target. Never a value to be set,
// typed text, a URL's user info, path or query, or a command's arguments.
#pragma once

#include <string>

#include "automation/definition.h"

namespace companyos::automation {

// "actions[1]: set_value on text \"Name\" in gtk3-fixture", or "actions[1]: <description>".
std::string describe_step(const Step& step, const std::string& path);

}  // namespace companyos::automation
