// Turns a definition's JSON into a Definition, or reports every problem at once, each with
// its JSON path ("actions[2].cwd: must be an absolute path"). The rules live here only: the
// daemon validates before it stores, and the CLI (which links no library but core) sends the
// file to the daemon to be validated. The rules are listed in docs/automations.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "automation/definition.h"
#include "companyos/result.h"
#include "core/object_reader.h"
#include "core/problems.h"

namespace companyos::automation {

inline constexpr std::size_t kMaxNameChars = 120;
inline constexpr std::size_t kMaxSteps = 50;  // preconditions, actions and postActions together
inline constexpr std::size_t kMaxArguments = 100;
inline constexpr std::size_t kMaxArgumentBytes = 16 * 1024;
inline constexpr std::size_t kMaxEnvironmentVariables = 100;
inline constexpr std::size_t kMaxPathBytes = 4096;
inline constexpr std::size_t kMaxUrlBytes = 8192;
inline constexpr std::size_t kMaxDescriptionChars = 500;
inline constexpr std::size_t kMaxPromptBytes = 64 * 1024;
inline constexpr std::size_t kMaxTextBytes = kMaxFieldBytes;  // any other string
inline constexpr int kMaxTimeoutSeconds = 86'400;
inline constexpr int kMaxHistoryLimit = 1000;
// details.problems lists at most this many; details.problem_count has the total.
inline constexpr std::size_t kMaxReportedProblems = 100;

// A problem is core's (core/problems.h): a JSON path and a message.
using companyos::Problem;

struct ValidationContext {
  // Now, in Unix seconds, for the retry-budget rule (it measures the coming year of the
  // schedule). nullopt skips that rule, for reading back a definition already stored.
  std::optional<std::int64_t> now;
  // Whether another automation already has this name. Unset where no store is at hand; the
  // daemon sets it so a taken name is reported with the other problems.
  std::function<bool(const std::string& name)> name_taken;
};

// The definition, or INVALID_ARGS whose details.problems is [{path, message}, …] in the
// order found and details.problem_count their number. Never throws.
Result<Definition> validate_definition(const nlohmann::json& input,
                                       const ValidationContext& context);

}  // namespace companyos::automation
