// The processes of the command steps now running, recorded beside the store so that a
// daemon started after one that was killed (SIGKILL, a crash, an OOM kill) can kill what
// that one's steps left running: a command step's processes never outlive the daemon
// unended, and a new run never overlaps them.
//
// Before a command starts, a record is written (one file: the boot and the run) under a
// random token, and the command gets the token in its environment (kStepTokenVariable),
// which every process it starts inherits unless it clears it. At start, the next daemon
// kills every process of this boot that carries a recorded token, and the process groups
// they lead: no pid is trusted, so a reused pid is never hit.
//
// The token is the second line of defence. The first is the step keeper (step_keeper.h):
// every command runs under one, which ends whatever the command started — token or not,
// group or not — when the step ends or the daemon dies.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"

namespace companyos::automation {

inline constexpr std::string_view kStepTokenVariable = "COMPANYOS_STEP_TOKEN";

struct StepRecord {
  std::string token;
  std::string boot_id;
  std::int64_t run_id = 0;
};

// "<boot_id> <run_id>\n"; nullopt for anything else (a torn write is skipped).
std::string format_record(const StepRecord& record);
std::optional<StepRecord> parse_record(std::string token, std::string_view text);

// Whether a process's environment (/proc/<pid>/environ: NUL-separated) holds the token.
bool carries_token(std::string_view environ, std::string_view token);

struct KilledStep {
  std::int64_t run_id = 0;
  std::vector<pid_t> pids;  // the processes that carried its token, killed now
};

class StepProcessRecord {
 public:
  // `keeper`: the step keeper program; empty when none was found, and then no command
  // step starts (INTERNAL, with what to do).
  StepProcessRecord(std::filesystem::path directory, std::filesystem::path keeper);

  const std::filesystem::path& keeper() const { return keeper_; }

  // Before a command starts: its token, to put in its environment. INTERNAL when the record
  // cannot be written; the command is then not started.
  Result<std::string> add(std::int64_t run_id);
  // When the step ends (the command exited, timed out or was stopped, and its group was
  // killed): SIGKILLs every process still carrying the token — what escaped the group with
  // setsid or a double fork — and the groups they lead, then deletes the record. The pids
  // killed.
  std::vector<pid_t> end(const std::string& token);
  // At daemon start, before any run: SIGKILLs every process of this boot carrying a
  // recorded token, and the groups they lead; deletes every record. One entry per record of
  // this boot: the step of a run the last daemon died in; `pids` is empty when nothing of it
  // was left (its keeper had ended it).
  std::vector<KilledStep> kill_left_over();

 private:
  std::filesystem::path directory_;
  std::filesystem::path keeper_;
};

}  // namespace companyos::automation
