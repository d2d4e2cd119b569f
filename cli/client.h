// One connection to companyosd: sends a request line and reads its reply envelope.
#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "core/unique_fd.h"

namespace companyos::cli {

enum class CallFailure { kNone, kUnreachable, kBrokenReply, kTimeout };

struct CallOutcome {
  CallFailure failure = CallFailure::kNone;
  std::string detail;       // what went wrong, when failure != kNone
  nlohmann::json envelope;  // the daemon's reply, when failure == kNone
};

class Client {
 public:
  explicit Client(std::string socket_path) : socket_path_(std::move(socket_path)) {}
  CallOutcome call(std::string_view method, const nlohmann::json& params,
                   std::chrono::milliseconds timeout);
  const std::string& socket_path() const { return socket_path_; }

 private:
  std::string socket_path_;
  UniqueFd fd_;
  long next_id_ = 1;
};

}  // namespace companyos::cli
