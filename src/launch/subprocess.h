// Runs a program from an argument vector — never through a shell — in a new process group,
// with stdin from /dev/null, no inherited descriptors beyond 0–2, a deadline after which the
// whole group is killed (SIGKILL), and stdout/stderr captured up to a cap. A stop request
// kills the program alone: what it started (a launcher's app) was asked for and keeps running.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "companyos/result.h"

namespace companyos::launch {

inline constexpr std::size_t kDefaultOutputCap = 64 * 1024;

enum class Capture {
  // Read while the program runs; what exceeds the cap is read and dropped. Reading stops
  // when the program exits, even if a child it left behind still holds the stream.
  kPipe,
  // A sealed in-memory file of twice the cap's size that cannot grow: writes past it fail
  // (EPERM), never with SIGPIPE, so memory stays bounded. For launchers whose children (the
  // launched app) inherit the streams and outlive them. The first cap bytes are kept.
  kBoundedFile,
};

struct SubprocessSpec {
  std::vector<std::string> argv;  // argv[0] is searched in $PATH when it has no '/'
  std::chrono::milliseconds timeout{10'000};
  std::size_t output_cap = kDefaultOutputCap;
  Capture capture = Capture::kPipe;
  // Seen within 10 ms: the program gets SIGKILL and is reaped; nothing else is signalled.
  // Already requested: nothing is started.
  std::stop_token stop{};
};

struct SubprocessResult {
  pid_t pid = -1;
  std::optional<int> exit_status;  // set when it exited on its own
  std::optional<int> signal;       // set when a signal ended it (SIGKILL after a timeout)
  bool timed_out = false;
  bool stopped = false;  // the stop token fired (pid is -1 when it fired before the start)
  std::string out;
  std::string err;
  bool out_truncated = false;
  bool err_truncated = false;
  std::chrono::milliseconds duration{0};

  bool succeeded() const { return !timed_out && !stopped && exit_status == 0; }
  // "exit status 0", "killed (with its process group) at the 8000 ms deadline", …
  std::string describe() const;
};

// Runs `spec` to completion, its deadline or a stop. INVALID_ARGS for no program or a NUL
// byte in an argument; INTERNAL (details.argv0, details.errno) when the program could not be
// started; everything after that is in the result.
Result<SubprocessResult> run_subprocess(const SubprocessSpec& spec);

}  // namespace companyos::launch
