// How an app name resolves, for `companyos entries --match NAME`: the fields tried, the
// deciding field, the entry chosen or every candidate, each refusal that would block a launch
// step, what the chosen entry can take, and files with a matching id that were set aside.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "launch/app_match.h"
#include "launch/desktop_index.h"
#include "launch/launch_policy.h"

namespace companyos::launch {

struct MatchExplanation {
  AppMatch match;
  std::vector<std::string> dirs;     // the applications directories, by level
  std::vector<Refusal> refusals;     // platform, match and entry refusals, in check order
  std::vector<IgnoredFile> ignored;  // set-aside files whose id stem equals the name
};

MatchExplanation explain_match(const DesktopIndex& index, std::string_view name,
                               const PlatformFacts& platform, const PolicyOptions& options = {});

// The reply data: {query, dirs, fields_tried, deciding_field, chosen, candidates, launchable,
// refusals, accepts, ignored}; see docs/launching.md.
nlohmann::json to_json(const MatchExplanation& explanation);

// One entry as replies show it.
nlohmann::json to_json(const DesktopEntry& entry);

}  // namespace companyos::launch
