// One result type for every fallible call across module seams (no exceptions cross them).
// An Error carries the protocol code, a message, details, a suggestion and the retry hint.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "companyos/errors.h"
#include "companyos/protocol.h"

namespace companyos {

using Error = protocol::ErrorBody;

inline Error make_error(ErrorCode code, std::string message,
                        nlohmann::json details = nlohmann::json::object(),
                        std::string suggestion = {}, Retry retry = Retry::kSafe) {
  return Error{code, std::move(message), std::move(details), std::move(suggestion), retry};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<Error>(state_); }
  Error&& take_error() && { return std::get<Error>(std::move(state_)); }

 private:
  std::variant<T, Error> state_;
};

// Result for calls that produce nothing but may fail.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace companyos
