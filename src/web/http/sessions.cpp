#include "web/http/sessions.h"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

namespace companyos::web {

std::string random_secret() {
  std::array<std::uint8_t, 32> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    // getrandom on Linux ≥ 3.17 only fails for bad arguments; never hand out a weak secret.
    if (n <= 0) std::abort();
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const std::uint8_t byte : bytes) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 0x0f]);
  }
  return text;
}

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ |= static_cast<unsigned char>(a[i] ^ b[i]);
  return differ == 0;
}

template <typename Entries>
void Sessions::drop_oldest(Entries& entries) {
  const auto when = [](const auto& entry) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(entry.second)>, Session>) {
      return entry.second.last_seen;
    } else {
      return entry.second;
    }
  };
  while (entries.size() >= kMaxEach) {
    auto oldest = entries.begin();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      if (when(*it) < when(*oldest)) oldest = it;
    }
    entries.erase(oldest);
  }
}

std::string Sessions::mint_login() {
  drop_oldest(logins_);
  std::string token = secret_();
  logins_[token] = clock_.steady();
  return token;
}

std::optional<std::string> Sessions::redeem(std::string_view login) {
  // Every token is compared in full (the map's own lookup stops at the first differing
  // byte), so how long a guess takes says nothing of how close it came.
  auto found = logins_.end();
  for (auto it = logins_.begin(); it != logins_.end(); ++it) {
    if (same_secret(it->first, login)) found = it;
  }
  if (found == logins_.end()) return std::nullopt;
  const auto given = found->second;
  logins_.erase(found);
  const auto now = clock_.steady();
  if (now - given > kLoginLifetime) return std::nullopt;
  drop_oldest(sessions_);
  std::string id = secret_();
  sessions_[id] = Session{secret_(), now};
  return id;
}

const Session* Sessions::find(std::string_view id) {
  auto found = sessions_.end();
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    if (same_secret(it->first, id)) found = it;
  }
  if (found == sessions_.end()) return nullptr;
  const auto now = clock_.steady();
  if (now - found->second.last_seen > kIdleLifetime) {
    sessions_.erase(found);
    return nullptr;
  }
  found->second.last_seen = now;
  return &found->second;
}

void Sessions::clear() {
  logins_.clear();
  sessions_.clear();
}

}  // namespace companyos::web
