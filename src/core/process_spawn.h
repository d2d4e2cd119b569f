// Starts a program with posix_spawn from an argument vector, never through a shell. The child
// gets descriptors 0–2 only, default handling of every signal and an empty signal mask,
// whatever the calling thread had (a daemon thread may block signals its children need).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "companyos/result.h"

namespace companyos {

// A standard stream of the child that is /dev/null rather than one of the caller's descriptors.
inline constexpr int kNullDevice = -1;

struct SpawnRequest {
  // Run as it is when it holds a '/', else searched in the caller's PATH.
  std::string program;
  std::vector<std::string> argv;  // the whole vector, argv[0] included; empty: {program}
  std::optional<std::vector<std::string>> environment;  // "NAME=value"; nullopt: the caller's
  std::string cwd;                                      // empty: the caller's
  // The caller's descriptors the child gets as 0, 1 and 2 (the same one twice is fine).
  int stdin_fd = kNullDevice;
  int stdout_fd = kNullDevice;
  int stderr_fd = kNullDevice;
  // Its pid becomes its process group id, so kill(-pid, …) reaches everything it starts.
  bool new_process_group = true;
};

// The child's pid, for the caller to reap. INVALID_ARGS for an empty program, a NUL byte in
// the program, an argument, an environment entry or the cwd, or a descriptor below -1.
// INTERNAL "cannot start '<program>': <strerror>" with details.program and details.errno
// when posix_spawn failed (ENOENT: no such program or cwd; EACCES: not executable, …).
Result<pid_t> spawn_process(const SpawnRequest& request);

}  // namespace companyos
