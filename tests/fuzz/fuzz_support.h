// What the fuzz targets share: the input as text, a check that aborts (so libFuzzer, or the
// replay test, reports the input) when a property every input must keep does not hold, and
// the request-side limits the daemon applies before any parser sees outside JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "companyos/protocol.h"
#include "core/json_depth.h"
#include "core/text.h"

namespace companyos::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A broken property is a finding like a crash: say which, then abort.
[[noreturn]] inline void property_failed(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: property does not hold: %s\n", file, line, what);
  std::abort();
}
#define FUZZ_CHECK(condition)                                                             \
  do {                                                                                    \
    if (!(condition)) ::companyos::fuzz::property_failed(#condition, __FILE__, __LINE__); \
  } while (false)

// JSON text as the daemon accepts it inside a request line: valid UTF-8 without NUL and at
// most protocol::kMaxJsonDepth deep (checked before parsing, as parse_request does), then
// parsed without exceptions. nullopt for anything the request layer would have refused.
inline std::optional<nlohmann::json> request_json(std::string_view text) {
  if (!is_valid_utf8_without_nul(text)) return std::nullopt;
  if (json_nesting_depth(text) > protocol::kMaxJsonDepth) return std::nullopt;
  auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return std::nullopt;
  return doc;
}

// Whether every string in `value` is valid UTF-8: dumping drops or replaces invalid bytes
// (protocol::to_line replaces them), so the two dumps differ exactly when there are some.
inline bool strings_are_utf8(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::ignore) ==
         value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A reply as the daemon writes it: exactly one line, the newline at its end.
inline bool is_one_line(std::string_view line) {
  return !line.empty() && line.back() == '\n' && line.find('\n') == line.size() - 1;
}

// The input split at '\n' into `count` fields (missing ones empty); the last keeps the rest.
inline std::vector<std::string> fields(std::string_view text, std::size_t count) {
  std::vector<std::string> out;
  while (out.size() + 1 < count) {
    const auto newline = text.find('\n');
    if (newline == std::string_view::npos) break;
    out.emplace_back(text.substr(0, newline));
    text.remove_prefix(newline + 1);
  }
  out.emplace_back(text);
  out.resize(count);
  return out;
}

}  // namespace companyos::fuzz
