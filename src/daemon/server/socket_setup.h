// Creates the daemon's listening socket safely, or adopts one passed by systemd.
// The directory must be ours and private; a stale socket is replaced; a live one means
// another daemon serves it, and we refuse (CONFLICT).
#pragma once

#include <optional>
#include <string>

#include "companyos/result.h"
#include "core/unique_fd.h"

namespace companyos::daemon {

struct Listener {
  UniqueFd fd;
  std::string path;
  bool created_by_us = false;  // only then is the socket file removed at exit
};

// Checks (or creates, 0700) the directory, handles a stale socket, binds with mode 0600.
Result<Listener> listen_on_path(const std::string& path);

// A listening AF_UNIX stream socket passed through sd_listen_fds, if there is one.
Result<std::optional<Listener>> listener_from_systemd();

// PERM_DENIED unless dir is owned by uid and has no group/other permission bits.
Status check_private_directory(const std::string& dir, uid_t uid);

}  // namespace companyos::daemon
