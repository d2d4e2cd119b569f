// Where the daemon's socket and store live, derived from the XDG environment.
// Each function takes the environment lookup so tests can pass their own.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace companyos::paths {

using EnvLookup = std::function<std::optional<std::string>(const char*)>;
std::optional<std::string> process_env(const char* name);

// COMPANYOS_SOCKET, else $XDG_RUNTIME_DIR/companyos/control.sock, else the session
// daemon's /run/user/<uid>/companyos/control.sock when that socket exists and is ours,
// else /tmp/companyos-<uid>/control.sock (no runtime dir: e.g. a bare root shell).
std::string default_socket(const EnvLookup& env = process_env);

// $XDG_STATE_HOME/companyos/companyos.db, else $HOME/.local/state/companyos/companyos.db.
std::string default_database(const EnvLookup& env = process_env);

}  // namespace companyos::paths
