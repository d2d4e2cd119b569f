#include "core/paths.h"

#include <gtest/gtest.h>

#include <map>

namespace companyos::paths {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(Paths, SocketFollowsOverrideThenRuntimeDirThenTmp) {
  EXPECT_EQ(default_socket(env_of({{"COMPANYOS_SOCKET", "/x/s"}, {"XDG_RUNTIME_DIR", "/run/user/1"}})), "/x/s");
  EXPECT_EQ(default_socket(env_of({{"XDG_RUNTIME_DIR", "/run/user/1"}})),
            "/run/user/1/companyos/control.sock");
  EXPECT_EQ(default_socket(env_of({{"COMPANYOS_SOCKET", ""}, {"XDG_RUNTIME_DIR", "/r"}})),
            "/r/companyos/control.sock");
  auto fallback = default_socket(env_of({}));
  EXPECT_EQ(fallback.rfind("/tmp/companyos-", 0), 0U) << fallback;
  EXPECT_NE(fallback.find("/control.sock"), std::string::npos);
}

TEST(Paths, DatabaseFollowsStateHomeThenHome) {
  EXPECT_EQ(default_database(env_of({{"XDG_STATE_HOME", "/s"}, {"HOME", "/h"}})),
            "/s/companyos/companyos.db");
  EXPECT_EQ(default_database(env_of({{"HOME", "/h"}})), "/h/.local/state/companyos/companyos.db");
  EXPECT_EQ(default_database(env_of({{"XDG_STATE_HOME", ""}, {"HOME", "/h"}})),
            "/h/.local/state/companyos/companyos.db");
}

}  // namespace
}  // namespace companyos::paths
