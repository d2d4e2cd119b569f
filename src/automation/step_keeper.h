// The keeper every command step of the daemon runs under: a small program
// (companyos-step-keeper) that is the step's child subreaper. Whatever the step starts — in its
// group or out of it, with its environment or without — stays the keeper's descendant, so
// when the step's command exits, or the daemon says "end now" (kKeeperEndNow), or the daemon
// dies (the keeper's parent-death signal), the keeper kills every descendant, reaps them and
// exits as its command did (the same exit status, or the same signal).
//
//   companyos-step-keeper --parent PID -- PROGRAM ARGV0 [ARG...]
//
// PROGRAM is run with argv ARGV0 ARG…, in a process group of its own, with the keeper's
// environment, cwd and descriptors. SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to the keeper
// are passed to the command's group. PID is the process that started the keeper: if it is
// gone before the keeper could watch it, nothing is started.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"

namespace companyos::automation {

inline constexpr std::string_view kStepKeeperName = "companyos-step-keeper";
// What the daemon sends a keeper whose command outstayed its grace; also the keeper's
// parent-death signal.
inline constexpr int kKeeperEndNow = SIGUSR1;
// The keeper's exit status when its command could not be started, as a shell's.
inline constexpr int kKeeperCannotStart = 127;

// Beside the running program (the build tree), else in ../libexec/companyos from it (an
// installed daemon); nullopt when neither holds an executable keeper.
std::optional<std::filesystem::path> find_step_keeper();

struct KeeperArguments {
  pid_t parent = 0;
  std::string program;            // absolute
  std::vector<std::string> argv;  // argv[0] included, never empty
};

// The keeper's own command line for `arguments` (program path first).
std::vector<std::string> keeper_command_line(const std::filesystem::path& keeper,
                                             const KeeperArguments& arguments);
// INVALID_ARGS for anything but the form above: a missing or non-positive --parent, no "--",
// a relative program, no ARGV0.
Result<KeeperArguments> parse_keeper_arguments(const std::vector<std::string_view>& words);

// The parent pid in a /proc/<pid>/stat line ("pid (comm) state ppid …"; comm may hold spaces
// and parentheses); nullopt for a line of another shape.
std::optional<pid_t> parent_in_stat(std::string_view stat_line);

// The keeper itself: runs the command, waits, ends every descendant. Returns only the exit
// status to exit with (an exit status of the command, kKeeperCannotStart, or 128 + the
// signal that ended it when raising that signal on itself did not end the keeper).
int run_step_keeper(const KeeperArguments& arguments);

}  // namespace companyos::automation
