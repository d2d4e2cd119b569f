// One connection to companyosd: sends a request line and reads its reply envelope. The CLI
// and the MCP server are both its callers; the daemon serves only its own uid.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "companyos/protocol.h"
#include "core/unique_fd.h"

namespace companyos {

enum class CallFailure { kNone, kUnreachable, kBrokenReply, kTimeout, kCancelled };

struct CallOutcome {
  CallFailure failure = CallFailure::kNone;
  std::string detail;       // what went wrong, when failure != kNone
  nlohmann::json envelope;  // the daemon's reply, when failure == kNone
};

class DaemonClient {
 public:
  // origin: who every request of this client speaks for (protocol.h); the MCP server's
  // client is an agent's.
  explicit DaemonClient(std::string socket_path, protocol::Origin origin = protocol::Origin::kPerson)
      : socket_path_(std::move(socket_path)), origin_(origin) {}
  // cancel_fd, when valid, ends the wait for the reply once it becomes readable: the
  // connection is closed, which ends the daemon's work behind the request (a wait stops).
  // each_second, when set, is called about once a second while the reply is awaited.
  CallOutcome call(std::string_view method, const nlohmann::json& params,
                   std::chrono::milliseconds timeout, int cancel_fd = -1,
                   const std::function<void()>& each_second = {});
  const std::string& socket_path() const { return socket_path_; }

 private:
  std::string socket_path_;
  protocol::Origin origin_;
  UniqueFd fd_;
  long next_id_ = 1;
};

}  // namespace companyos
