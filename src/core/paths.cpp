#include "core/paths.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace companyos::paths {
namespace {

std::optional<std::string> non_empty(const EnvLookup& env, const char* name) {
  auto value = env(name);
  if (value && !value->empty()) return value;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> process_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::string default_socket(const EnvLookup& env) {
  if (auto explicit_path = non_empty(env, "COMPANYOS_SOCKET")) return *explicit_path;
  if (auto runtime = non_empty(env, "XDG_RUNTIME_DIR")) return *runtime + "/companyos/control.sock";
  // A client started with a trimmed environment (MCP hosts pass only HOME, PATH and a few
  // more) still finds the daemon of the user's session at logind's runtime directory.
  const std::string session_socket = "/run/user/" + std::to_string(getuid()) + "/companyos/control.sock";
  struct stat info {};
  if (::stat(session_socket.c_str(), &info) == 0 && S_ISSOCK(info.st_mode) && info.st_uid == getuid()) {
    return session_socket;
  }
  return "/tmp/companyos-" + std::to_string(getuid()) + "/control.sock";
}

std::string default_database(const EnvLookup& env) {
  if (auto state = non_empty(env, "XDG_STATE_HOME")) return *state + "/companyos/companyos.db";
  auto home = non_empty(env, "HOME").value_or("/tmp");
  return home + "/.local/state/companyos/companyos.db";
}

}  // namespace companyos::paths
