#include "a11y/policy.h"

#include <array>
#include <cctype>
#include <string>

namespace companyos::a11y {

bool is_password_manager(std::string_view app_name) {
  // "keepass" also covers KeePassXC, KeePassX and KeePass2.
  static constexpr std::array<std::string_view, 5> kWordPrefixes = {
      "keepass", "bitwarden", "1password", "seahorse", "pinentry"};
  std::string word;
  auto word_matches = [&word] {
    for (std::string_view prefix : kWordPrefixes) {
      if (std::string_view(word).starts_with(prefix)) return true;
    }
    return false;
  };
  for (char c : app_name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      word.push_back(static_cast<char>(std::tolower(u)));
      continue;
    }
    if (word_matches()) return true;
    word.clear();
  }
  return word_matches();
}

Status check_observation_allowed(std::string_view app_name) {
  if (!is_password_manager(app_name)) return ok_status();
  return make_error(ErrorCode::kPolicyDenied,
                    "observing password managers is not allowed",
                    {{"app", std::string(app_name)}, {"reason", "password_manager"}},
                    "companyOS never reads password managers; use the app directly");
}

}  // namespace companyos::a11y
