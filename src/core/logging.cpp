#include "core/logging.h"

#include <unistd.h>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace companyos::logging {

std::optional<spdlog::level::level_enum> parse_level(std::string_view name) {
  if (name == "trace") return spdlog::level::trace;
  if (name == "debug") return spdlog::level::debug;
  if (name == "info") return spdlog::level::info;
  if (name == "warn") return spdlog::level::warn;
  if (name == "error") return spdlog::level::err;
  return std::nullopt;
}

void init(spdlog::level::level_enum level) {
  auto logger = spdlog::stderr_color_mt("companyosd");
  // Under journald the timestamp is added by the journal; a terminal gets one.
  if (isatty(STDERR_FILENO)) {
    logger->set_pattern("%H:%M:%S.%e %^%l%$ %v");
  } else {
    logger->set_pattern("%l: %v");
  }
  logger->set_level(level);
  spdlog::set_default_logger(logger);
}

}  // namespace companyos::logging
