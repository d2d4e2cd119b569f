// Logging to stderr through spdlog (journald collects a user service's stderr).
#pragma once

#include <optional>
#include <string_view>

#include <spdlog/common.h>

namespace companyos::logging {

// trace|debug|info|warn|error; nullopt for anything else.
std::optional<spdlog::level::level_enum> parse_level(std::string_view name);
void init(spdlog::level::level_enum level);

}  // namespace companyos::logging
