// Finds the file a command step's argv[0] names, before anything is started, so that a
// missing program is reported as NOT_FOUND rather than as a failed start.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::automation {

// An absolute path is taken as it is; a bare name is searched in the directories of
// `search_path` (PATH syntax). Empty and relative PATH entries are skipped: what a step runs
// must not depend on its cwd. NOT_FOUND when no such file exists, PERM_DENIED when it exists
// but is not executable, INVALID_ARGS for a relative path ("bin/tool", "./tool").
Result<std::string> resolve_executable(std::string_view program, std::string_view search_path);

// PATH as `environment` sets it, or the system's default search path when it does not.
std::string search_path_of(std::span<const std::string> environment);

}  // namespace companyos::automation
