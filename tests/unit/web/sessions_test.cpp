#include "web/http/sessions.h"

#include <gtest/gtest.h>

#include <set>

namespace companyos::web {
namespace {

// Secrets a test can name: "s1", "s2", … in order.
struct CountingSecrets {
  int next = 0;
  std::string operator()() { return "s" + std::to_string(++next); }
};

TEST(RandomSecret, Is64HexDigitsAndNeverRepeats) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string secret = random_secret();
    ASSERT_EQ(secret.size(), 64U);
    EXPECT_EQ(secret.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_TRUE(seen.insert(secret).second);
  }
}

TEST(SameSecret, ComparesWholeStrings) {
  EXPECT_TRUE(same_secret("abc", "abc"));
  EXPECT_FALSE(same_secret("abc", "abd"));
  EXPECT_FALSE(same_secret("abc", "ab"));
  EXPECT_FALSE(same_secret("", "a"));
  EXPECT_TRUE(same_secret("", ""));
}

TEST(Sessions, ALoginOpensOneSessionOnce) {
  FakeClock clock;
  Sessions sessions(clock, CountingSecrets{});
  const std::string login = sessions.mint_login();
  const auto id = sessions.redeem(login);
  ASSERT_TRUE(id);
  EXPECT_NE(*id, login);
  const Session* session = sessions.find(*id);
  ASSERT_NE(session, nullptr);
  EXPECT_FALSE(session->csrf.empty());
  EXPECT_NE(session->csrf, *id);
  EXPECT_EQ(sessions.redeem(login), std::nullopt) << "a login link works once";
  EXPECT_EQ(sessions.find(login), nullptr) << "a login token is no session";
}

TEST(Sessions, UnknownTokensOpenNothing) {
  FakeClock clock;
  Sessions sessions(clock, CountingSecrets{});
  sessions.mint_login();
  EXPECT_EQ(sessions.redeem("s2"), std::nullopt);
  EXPECT_EQ(sessions.redeem(""), std::nullopt);
  EXPECT_EQ(sessions.find(""), nullptr);
  EXPECT_EQ(sessions.find("s1"), nullptr);
}

TEST(Sessions, ALoginExpiresAfterTenMinutes) {
  FakeClock clock;
  Sessions sessions(clock, CountingSecrets{});
  const std::string early = sessions.mint_login();
  const std::string late = sessions.mint_login();
  clock.advance(Sessions::kLoginLifetime);
  EXPECT_TRUE(sessions.redeem(early)) << "at ten minutes it still works";
  clock.advance(std::chrono::seconds(1));
  EXPECT_EQ(sessions.redeem(late), std::nullopt);
  EXPECT_EQ(sessions.redeem(late), std::nullopt) << "and an expired one is gone";
}

TEST(Sessions, ASessionEndsAfterTwelveIdleHoursAndUseKeepsItAlive) {
  FakeClock clock;
  Sessions sessions(clock, CountingSecrets{});
  const auto id = sessions.redeem(sessions.mint_login());
  ASSERT_TRUE(id);
  clock.advance(Sessions::kIdleLifetime);
  ASSERT_NE(sessions.find(*id), nullptr);
  clock.advance(Sessions::kIdleLifetime);
  ASSERT_NE(sessions.find(*id), nullptr) << "used at the last moment, it lives on";
  clock.advance(Sessions::kIdleLifetime + std::chrono::seconds(1));
  EXPECT_EQ(sessions.find(*id), nullptr);
}

TEST(Sessions, KeepsAtMostSixtyFourOfEachDroppingTheOldest) {
  FakeClock clock;
  Sessions sessions(clock, CountingSecrets{});
  std::vector<std::string> logins;
  for (std::size_t i = 0; i < Sessions::kMaxEach + 1; ++i) {
    logins.push_back(sessions.mint_login());
    clock.advance(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(sessions.redeem(logins.front()), std::nullopt) << "the oldest unused login went";
  EXPECT_TRUE(sessions.redeem(logins.back()));
}

TEST(Sessions, ClearEndsEverything) {
  FakeClock clock;
  Sessions sessions(clock, CountingSecrets{});
  const std::string login = sessions.mint_login();
  const auto id = sessions.redeem(sessions.mint_login());
  sessions.clear();
  EXPECT_EQ(sessions.redeem(login), std::nullopt);
  EXPECT_EQ(sessions.find(*id), nullptr);
}

}  // namespace
}  // namespace companyos::web
