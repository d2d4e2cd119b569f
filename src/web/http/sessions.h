// The dashboard's logins: one-time tokens the person gets from `companyos dashboard`, each
// exchanged once for a session, and the sessions their browsers hold as a cookie. Each
// session has its own CSRF token, which every API request must carry in a header.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"

namespace companyos::web {

// 32 bytes from the kernel's generator (getrandom), as 64 hex digits.
std::string random_secret();

struct Session {
  std::string csrf;
  std::chrono::steady_clock::time_point last_seen;
};

class Sessions {
 public:
  // A login token is good for this long after it was given, and once.
  static constexpr std::chrono::minutes kLoginLifetime{10};
  // A session ends after this long without a request.
  static constexpr std::chrono::hours kIdleLifetime{12};
  // At most this many sessions and unused logins each; the oldest go first.
  static constexpr std::size_t kMaxEach = 64;

  explicit Sessions(const Clock& clock, std::function<std::string()> secret = &random_secret)
      : clock_(clock), secret_(std::move(secret)) {}

  std::string mint_login();
  // The session a valid, unused, unexpired login token opens (its id, for the cookie); the
  // token is spent either way.
  std::optional<std::string> redeem(std::string_view login);
  // The live session a cookie names, touched; nullptr when none.
  const Session* find(std::string_view id);
  void clear();

 private:
  template <typename Entries>
  static void drop_oldest(Entries& entries);

  const Clock& clock_;
  std::function<std::string()> secret_;
  std::map<std::string, std::chrono::steady_clock::time_point, std::less<>> logins_;  // token → given at
  std::map<std::string, Session, std::less<>> sessions_;
};

// Compares two secrets in time that depends on their lengths only.
bool same_secret(std::string_view a, std::string_view b);

}  // namespace companyos::web
