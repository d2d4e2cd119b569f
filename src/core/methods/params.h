// Params several declarations share, so each is worded and bounded once.
#pragma once

#include <vector>

#include "companyos/methods.h"

namespace companyos::methods::shared {

inline ParamSpec observation_timeout() {
  return {.name = "timeout_ms",
          .type = ParamType::kInteger,
          .help = "deadline for the app's answers, in ms (default 2000)",
          .range = IntRange{1, kMaxObservationTimeout.count()},
          .option = "--timeout"};
}

inline ParamSpec id(std::string_view help) {
  return {.name = "id", .type = ParamType::kInteger, .required = true, .help = help, .range = IntRange{1, {}}};
}

// An action's reply may carry the state its app settled in (docs/actions.md, "Settled
// state"): what an agent reads after each action.
inline ParamSpec settle() {
  return {.name = "settle",
          .type = ParamType::kBoolean,
          .help = "answer with the window's state once the app has settled (its events quiet for 40 ms, "
                  "at most 1.5 s), as the agent view"};
}

// app, then window or title: one window of one app.
inline std::vector<ParamSpec> window_target(std::vector<ParamSpec> extra = {}) {
  std::vector<ParamSpec> params = {
      {.name = "app", .type = ParamType::kString, .required = true, .help = "application name"},
      {.name = "window", .help = "window id (from `companyos windows`)"},
      {.name = "title", .help = "exact window title", .excludes = "window"},
      observation_timeout()};
  params.insert(params.end(), extra.begin(), extra.end());
  return params;
}

}  // namespace companyos::methods::shared
