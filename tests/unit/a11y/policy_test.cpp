#include "a11y/policy.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(Policy, PasswordManagersAreRecognised) {
  struct Case {
    const char* name;
    bool denied;
  };
  const Case cases[] = {
      {"KeePassXC", true},        {"keepassxc", true},       {"KeePass", true},
      {"keepass2", true},         {"org.keepassxc.KeePassXC", true},
      {"Bitwarden", true},        {"com.bitwarden.desktop", true},
      {"1Password", true},        {"1password", true},       {"Seahorse", true},
      {"seahorse", true},         {"pinentry", true},        {"pinentry-gtk-2", true},
      {"pinentry-gnome3", true},  {"PINENTRY", true},
      {"mousepad", false},        {"gnome-calculator", false}, {"", false},
      {"companyos-fixture-gtk3", false}, {"password-notes", false}, {"keep", false},
      {"my1password", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(is_password_manager(c.name), c.denied) << c.name;
    const Status status = check_observation_allowed(c.name);
    EXPECT_EQ(status.ok(), !c.denied) << c.name;
    if (!status.ok()) {
      EXPECT_EQ(status.error().code, ErrorCode::kPolicyDenied);
      EXPECT_EQ(status.error().details["reason"], "password_manager");
    }
  }
}

}  // namespace
}  // namespace companyos::a11y
