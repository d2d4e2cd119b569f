// The environment a command step runs with: the daemon's own, with the step's entries set on
// top (an entry replaces an inherited variable of the same name).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"

namespace companyos::automation {

// A copy of the daemon's environment, NAME=VALUE strings in their order.
std::vector<std::string> daemon_environment();

// INVALID_ARGS (details.name) for a NAME that is not letters, digits and '_' (not starting with
// a digit), or a VALUE holding a NUL byte. Messages never include a value.
Result<std::vector<std::string>> child_environment(std::span<const std::string> inherited,
                                                   const std::map<std::string, std::string>& extra);

// The value of `name` in `environment`, if it is set.
std::optional<std::string_view> environment_value(std::span<const std::string> environment,
                                                  std::string_view name);

}  // namespace companyos::automation
