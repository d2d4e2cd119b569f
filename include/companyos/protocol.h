// Wire format shared by daemon and CLI: one JSON object per line (docs/protocol.md).
// Request {"id","method","params"}; reply {"id","ok":true,"data"} or {"id","ok":false,"error"}.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "companyos/errors.h"

namespace companyos::protocol {

inline constexpr std::size_t kMaxLineBytes = 4 * 1024 * 1024;
// Arrays and objects nest at most this deep in a request line, the request object
// included: copying and printing JSON recurse once per level.
inline constexpr std::size_t kMaxJsonDepth = 128;

struct ErrorBody {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  nlohmann::json details = nlohmann::json::object();
  std::string suggestion;
  Retry retry = Retry::kSafe;
};

// Who a request speaks for. A person (the CLI, a script, the dashboard) is the default; the
// MCP server marks every request it sends for an agent "origin":"agent", so the daemon can
// record an agent's runs as an agent's and refuse it what only the person may do
// (docs/protocol.md, "Who asks").
enum class Origin { kPerson, kAgent };
std::string_view to_string(Origin origin);
std::optional<Origin> origin_from_string(std::string_view name);

// A request line's object; "origin" only for an agent (a person's is the default).
nlohmann::json make_request(const nlohmann::json& id, std::string_view method,
                            nlohmann::json params = nlohmann::json::object(),
                            Origin origin = Origin::kPerson);
nlohmann::json ok_envelope(const nlohmann::json& id, nlohmann::json data);
nlohmann::json error_envelope(const nlohmann::json& id, const ErrorBody& error);

// Serialises one envelope as a single line, newline included. Invalid UTF-8 in
// strings is replaced rather than thrown on, so a reply is always sent.
std::string to_line(const nlohmann::json& envelope);

}  // namespace companyos::protocol
