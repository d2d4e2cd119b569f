// Child processes for desktop tests: fixture apps that live for a test, and outside tools
// whose output serves as an oracle. Both run from an argument vector, never a shell.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace companyos::x11::testing {

// A process that is terminated (SIGTERM, then SIGKILL) and reaped on destruction.
class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH) with `argv`; pid() is -1 when that failed.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Waits up to `deadline` for the process to exit on its own; its exit status if it did.
  std::optional<int> wait_for_exit(std::chrono::milliseconds deadline);

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

// Runs `argv` to completion (killed after `deadline`) and returns its standard output,
// or nullopt when it could not start, timed out or exited non-zero.
std::optional<std::string> run_for_output(const std::vector<std::string>& argv,
                                          std::chrono::milliseconds deadline);

}  // namespace companyos::x11::testing
